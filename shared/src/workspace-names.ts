/**
 * How a request names its workspace (docs/architecture.md, The request path), with no schemas, so the
 * SPA's entry chunk can import it (`@app/shared/workspace-names`) without the zod graph.
 */
/** The request header that names the current workspace (absent: the caller's personal workspace). */
export const WORKSPACE_HEADER = 'x-workspace';

/** The query parameter that names it where no header can be sent (an `<img>`'s address). */
export const WORKSPACE_QUERY = 'ws';

/** The cookie the SPA keeps it in too, for what the browser loads by itself (images). */
export const WORKSPACE_COOKIE = 'cp-workspace';
