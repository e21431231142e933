import type middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { WORKSPACE_COOKIE, WORKSPACE_HEADER, WORKSPACE_QUERY } from '@app/shared';
import { readCookie } from '../domain/sessions.js';
import { routeRole } from '@app/shared/api';
import { requireRole, resolveWorkspace } from '../domain/workspaces.js';
import type { ApiResponse } from '../http/response.js';
import { workspaceReads } from '../wiring/workspace-access.js';
import type { ApiContext } from './api.js';

type Request = middy.Request<APIGatewayProxyEventV2, ApiResponse, Error, ApiContext>;

/**
 * The one place a request's workspace is resolved and its role checked (docs/architecture.md): for a
 * signed-in route that needs a role (shared/src/api/roles.ts), the X-Workspace header names the workspace
 * (absent: the caller's personal one, which costs no read); not a member → 404, a lower role → 403.
 * Membership is read on every request, so a removal or a lower role applies to the member's next call.
 * An `<img>` cannot send a header: an address may name it as `?ws=` (taken out of the query before the
 * route's schema sees it), and the SPA also keeps the current workspace in a cookie, which the browser
 * sends with the images the pages show. Whichever names it, membership decides.
 */
export const workspaceAccess = (): middy.MiddlewareObj<APIGatewayProxyEventV2, ApiResponse, Error, ApiContext> => ({
  before: async (request: Request) => {
    const { api } = request.context;
    const needed = routeRole(api.route.id);
    if (api.route.access !== 'user' || needed === 'none' || !api.user) return;
    const query = request.event.queryStringParameters;
    const fromQuery = query?.[WORKSPACE_QUERY];
    if (query && fromQuery !== undefined) delete query[WORKSPACE_QUERY];
    const named =
      request.event.headers[WORKSPACE_HEADER] ?? fromQuery ?? readCookie(request.event.cookies, WORKSPACE_COOKIE);
    const workspace = await resolveWorkspace(workspaceReads(), api.user, named);
    requireRole(workspace, needed);
    api.workspace = workspace;
  },
});
