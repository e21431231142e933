import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { MAX_BODY_BYTES, Messages, firstIssueMessage, isAdmin } from '@app/shared';
import { deps } from '../wiring/deps.js';
import { readCookie, SESSION_COOKIE } from '../domain/sessions.js';
import type { UserRecord } from '../domain/users.js';
import { DomainError, type DomainErrorKind } from '../domain/errors.js';
import { IntegrationError } from '../domain/integrations.js';
import type { RouteHandlers } from '../http/handlers.js';
import { API_RESPONSE_HEADERS } from '../http/security-headers.js';
import { badRequest, errorResponse, forbidden, notFound, unauthorized, type ApiResponse } from '../http/response.js';
import { logger } from '../logger.js';
import { flushMetrics } from '../business-events.js';
import { findRouteByKey, type RouteDef, type RouteId, type SchemaGetter } from '@app/shared/api';
import { originSecretCheck } from './origin-secret.js';
import type { CurrentWorkspace } from '../domain/workspaces.js';
import { workspaceAccess } from './workspace.js';

export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<ApiResponse>;

/** What the middleware finds out about a request, filled in step by step, then handed to the route's handler. */
interface ApiState {
  route: RouteDef;
  body: unknown;
  query: unknown;
  params: unknown;
  user: UserRecord | undefined;
  /** The request's workspace and the caller's role in it (middleware/workspace.ts), for routes that need one. */
  workspace?: CurrentWorkspace;
  startedAt: number;
}
/** Any route's handler, as the dispatch calls it (see createApiHandler). */
type AnyRouteHandler = (req: Omit<ApiState, 'startedAt'> & { event: APIGatewayProxyEventV2 }) => Promise<ApiResponse>;

export type ApiContext = Context & { api: ApiState };
type Request = middy.Request<APIGatewayProxyEventV2, ApiResponse, Error, ApiContext>;

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Finds the route-table entry API Gateway matched (event.routeKey) and its handler. */
const resolveRoute = (): middy.MiddlewareObj<APIGatewayProxyEventV2, ApiResponse, Error, ApiContext> => ({
  before: (request: Request) => {
    const route = findRouteByKey(request.event.routeKey);
    if (!route) throw notFound(Messages.notFound);
    request.context.api = { route, body: undefined, query: {}, params: {}, user: undefined, startedAt: Date.now() };
  },
});

function allowedOrigins(event: APIGatewayProxyEventV2, publicUrl: string): Set<string> {
  const origins = new Set([new URL(publicUrl).origin]);
  const host = event.headers['x-forwarded-host'] ?? event.headers.host;
  if (host) {
    origins.add(`https://${host}`);
    origins.add(`http://${host}`);
  }
  return origins;
}

/** Refuses state-changing calls that a browser sends from another origin (CSRF). */
const originCheck = (): middy.MiddlewareObj<APIGatewayProxyEventV2, ApiResponse, Error, ApiContext> => ({
  before: (request: Request) => {
    const { event } = request;
    if (!STATE_CHANGING.has(event.requestContext.http.method)) return;
    const origin = event.headers.origin;
    if (origin !== undefined) {
      if (!allowedOrigins(event, deps().config.publicUrl).has(origin))
        throw forbidden(Messages.crossOrigin, 'cross_origin');
      return;
    }
    const site = event.headers['sec-fetch-site'];
    if (site && site !== 'same-origin' && site !== 'none') throw forbidden(Messages.crossOrigin, 'cross_origin');
  },
});

/**
 * 1 MB limit, then JSON parsing for routes that take a body; anything else is ignored. The parsing is these few
 * lines (API Gateway may send the body base64-encoded) where a body-parser middleware and its helpers were ~2.5 KB
 * of every cold start.
 */
const jsonBody = (): middy.MiddlewareObj<APIGatewayProxyEventV2, ApiResponse, Error, ApiContext> => ({
  before: (request: Request) => {
    const { body, isBase64Encoded } = request.event;
    if (body && Buffer.byteLength(body, isBase64Encoded ? 'base64' : 'utf8') > MAX_BODY_BYTES) {
      throw badRequest(Messages.bodyTooLarge, 'body_too_large');
    }
    if (!request.context.api.route.body) return;
    if (!body) throw badRequest('Request body is required (JSON)', 'body_required');
    const contentType = request.event.headers['content-type'] ?? '';
    if (!/^application\/(.+\+)?json($|;)/.test(contentType)) {
      throw badRequest('Send the request body as JSON (Content-Type: application/json)', 'unsupported_media_type');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(isBase64Encoded ? Buffer.from(body, 'base64').toString() : body);
    } catch {
      throw badRequest(Messages.malformedJson, 'malformed_json');
    }
    // Every payload is an object of named fields: refuse an array, a string, a number or null as a whole.
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw badRequest(Messages.bodyNotObject, 'body_not_object');
    }
    request.context.api.body = parsed;
  },
});

/** The one place where route access (public, user, admin) is enforced. */
const authorize = (): middy.MiddlewareObj<APIGatewayProxyEventV2, ApiResponse, Error, ApiContext> => ({
  before: async (request: Request) => {
    const { api } = request.context;
    if (api.route.access === 'public') return;
    const { users, sessions } = deps();
    const user = await users.sessionUser(await sessions.verify(readCookie(request.event.cookies, SESSION_COOKIE)));
    if (!user) throw unauthorized(Messages.notAuthenticated, 'not_authenticated');
    if (api.route.access === 'admin' && !isAdmin(user)) throw forbidden(Messages.adminOnly, 'forbidden');
    api.user = user;
  },
});

function parseWith(schema: SchemaGetter | undefined, value: unknown): unknown {
  if (!schema) return value;
  const result = schema().safeParse(value);
  if (!result.success) throw badRequest(firstIssueMessage(result.error), 'validation_failed');
  return result.data;
}

/** zod validation of path parameters, query string and body from the route's shared schemas. */
const validate = (): middy.MiddlewareObj<APIGatewayProxyEventV2, ApiResponse, Error, ApiContext> => ({
  before: (request: Request) => {
    const { api } = request.context;
    const { event } = request;
    api.params = parseWith(api.route.params, event.pathParameters ?? {});
    api.query = parseWith(api.route.query, event.queryStringParameters ?? {});
    api.body = parseWith(api.route.body, api.body);
  },
});

/** The one place a domain error's kind becomes an HTTP status. */
const STATUS_OF: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  quota_exceeded: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_attempts: 429,
  upstream: 502,
  upstream_timeout: 504,
};

/** One error shape for every failure: `{error, message, code?}`, never a stack trace. */
const errorHandler = (): middy.MiddlewareObj<APIGatewayProxyEventV2, ApiResponse, Error, ApiContext> => ({
  onError: (request: Request) => {
    const err = request.error;
    if (err instanceof DomainError) {
      const response = errorResponse(STATUS_OF[err.kind], err.message, err.code);
      request.response =
        err.retryAfterSeconds === undefined
          ? response
          : { ...response, headers: { ...response.headers, 'retry-after': String(err.retryAfterSeconds) } };
    } else if (err instanceof IntegrationError) {
      // A vendor's failure no domain call turned into a domain error: its message is written for the person.
      request.response = errorResponse(502, err.message, err.code);
    } else {
      logger.error('Unhandled error', { route: request.context.api?.route.id, error: err as Error });
      request.response = errorResponse(500, Messages.internal, 'internal');
    }
  },
});

/**
 * The security headers of every answer (API_RESPONSE_HEADERS), and no `Server` or `X-Powered-By`. A few lines
 * where a general-purpose middleware (HTML policies, options) was ~6 KB of every cold start.
 */
const securityHeaders = (): middy.MiddlewareObj<APIGatewayProxyEventV2, ApiResponse, Error, ApiContext> => {
  const add = (request: Request) => {
    const response = request.response;
    if (!response) return;
    const headers: Record<string, string | number | boolean> = { ...response.headers, ...API_RESPONSE_HEADERS };
    delete headers.Server;
    delete headers['X-Powered-By'];
    request.response = { ...response, headers };
  };
  return { after: add, onError: add };
};

/** One log line per request: route, status, duration. No bodies, no headers, no cookies. */
const requestLog = (): middy.MiddlewareObj<APIGatewayProxyEventV2, ApiResponse, Error, ApiContext> => {
  const log = (request: Request) => {
    const api = request.context.api;
    logger.info('request', {
      route: api?.route.id ?? request.event.routeKey,
      status: request.response?.statusCode,
      ms: api ? Date.now() - api.startedAt : undefined,
    });
  };
  return { after: log, onError: log };
};

/** The Lambda handler of a route group: the middy stack around the group's handlers (http/<group>.ts). */
export function createApiHandler(handlers: RouteHandlers): LambdaHandler {
  const handler = middy<APIGatewayProxyEventV2, ApiResponse, Error, ApiContext>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    // Flushes the business metrics the request recorded (business-events.ts), also when it fails.
    .use(flushMetrics())
    .use(requestLog())
    .use(securityHeaders())
    .use(errorHandler())
    .use(originSecretCheck())
    .use(resolveRoute())
    .use(originCheck())
    .use(jsonBody())
    .use(authorize())
    .use(workspaceAccess())
    .use(validate())
    .handler(async (event, context) => {
      const { api } = context;
      // The one untyped step: the handler of this route gets what the steps above made of the request,
      // which is what its RouteRequest promises (input parsed by the route's schemas, user per its access).
      const handle = handlers[api.route.id as RouteId] as AnyRouteHandler | undefined;
      if (!handle) throw notFound(Messages.notFound);
      return handle({
        event,
        route: api.route,
        body: api.body,
        query: api.query,
        params: api.params,
        user: api.user,
        workspace: api.workspace,
      });
    });
  // The middy context type carries our per-request `api` slot, which middleware fills in.
  return handler as unknown as LambdaHandler;
}
