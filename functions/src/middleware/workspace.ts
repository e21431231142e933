import type middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { WORKSPACE_HEADER, WORKSPACE_QUERY } from '@app/shared';
import { routeRole } from '@app/shared/api';
import { requireRole, resolveWorkspace } from '../domain/workspaces.js';
import type { ApiResponse } from '../http/response.js';
import { workspaceStore } from '../wiring/workspace-access.js';
import type { ApiContext } from './api.js';

type Request = middy.Request<APIGatewayProxyEventV2, ApiResponse, Error, ApiContext>;

/**
 * The one place a request's workspace is resolved and its role checked (docs/architecture.md): for a
 * signed-in route that needs a role (shared/src/api/roles.ts), the X-Workspace header names the workspace
 * (absent: the caller's personal one, which costs no read); not a member → 404, a lower role → 403.
 * Membership is read on every request, so a removal or a lower role applies to the member's next call.
 * An `<img>` cannot send a header, so the image routes' addresses carry it as `?ws=` instead, which is
 * taken out of the query before the route's schema sees it.
 */
export const workspaceAccess = (): middy.MiddlewareObj<APIGatewayProxyEventV2, ApiResponse, Error, ApiContext> => ({
  before: async (request: Request) => {
    const { api } = request.context;
    const needed = routeRole(api.route.id);
    if (api.route.access !== 'user' || needed === 'none' || !api.user) return;
    const query = request.event.queryStringParameters;
    const fromQuery = query?.[WORKSPACE_QUERY];
    if (query && fromQuery !== undefined) delete query[WORKSPACE_QUERY];
    const named = request.event.headers[WORKSPACE_HEADER] ?? fromQuery;
    const workspace = await resolveWorkspace(workspaceStore(), api.user, named);
    requireRole(workspace, needed);
    api.workspace = workspace;
  },
});
