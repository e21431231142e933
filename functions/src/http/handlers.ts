import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type {
  ApiResponses,
  GroupRouteId,
  RouteDef,
  RouteGroup,
  RouteId,
  RouteOf,
  RouteParsedInput,
} from '@app/shared/api';
import type { ROUTE_ROLES } from '@app/shared/api';
import type { UserRecord } from '../domain/users.js';
import type { CurrentWorkspace } from '../domain/workspaces.js';
import type { Reply } from './response.js';

/**
 * What the handler of route K receives, all of it from the route's table entry
 * (shared/src/api/routes.ts): `params`, `query` and `body` as its schemas parsed them (only those it
 * has), the user its access guarantees (signed in unless the route is public), and the workspace it
 * acts in with the caller's role there, for routes that need a role (shared/src/api/roles.ts): its `id`
 * is the owner of the data (articles, settings, secrets, images), the user's own id in a personal workspace.
 * Dependencies are not in it: a handler takes what it needs from the wiring getters (wiring/*.ts).
 */
export type RouteRequest<K extends RouteId> = {
  event: APIGatewayProxyEventV2;
  route: RouteDef;
  user: RouteOf<K>['access'] extends 'public' ? UserRecord | undefined : UserRecord;
  workspace: (typeof ROUTE_ROLES)[K] extends 'none' ? undefined : CurrentWorkspace;
} & RouteParsedInput<K>;

/** The handler of route K: its answer is the route's answer type (shared/src/api/responses.ts). */
export type RouteHandler<K extends RouteId> = (req: RouteRequest<K>) => Promise<Reply<ApiResponses[K]>>;

/** The handlers of one route group: exactly its routes, no more and no fewer. */
export type GroupHandlers<G extends RouteGroup> = { [K in GroupRouteId<G>]: RouteHandler<K> };

/** Handlers of any routes, by route id (what the middleware dispatches to). */
export type RouteHandlers = { [K in RouteId]?: RouteHandler<K> };

/**
 * The handlers of group G (one Lambda function). Each handler's input and answer are typed from the
 * contract, and a route of the group without a handler, or a handler of another route, does not compile.
 */
export const defineHandlers = <G extends RouteGroup>(_group: G, handlers: GroupHandlers<G>): GroupHandlers<G> =>
  handlers;
