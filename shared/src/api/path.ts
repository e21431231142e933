import type { RouteDef } from './routes.js';

/**
 * The path of a call to `route`: each `{name}` segment replaced by `params[name]`, URI-encoded
 * (API Gateway and matchRoute decode it again). A missing parameter is a programming error.
 * A module of its own, without the table's schemas: the SPA's client imports only this
 * (`@app/shared/api/path`), so the welcome page's JavaScript carries no zod (frontend/vite.config.ts).
 */
export function routePath(route: Pick<RouteDef, 'path'>, params: Readonly<Record<string, string>> = {}): string {
  return route.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route.path}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
}
