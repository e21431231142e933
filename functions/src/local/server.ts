import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import sirv from 'sirv';
import { Messages } from '@app/shared';
import { errorResponse, type ApiResponse } from '../http/response.js';
import { groupHandlers } from '../lambda/index.js';
import { localSecurityHeaders } from '../http/security-headers.js';
import { logger } from '../logger.js';
import { API_FUNCTION_TIMEOUT_S } from '../time-budgets.js';
import { hostAllowed } from './host.js';
import { matchRoute, routeGroup, routeKey } from '@app/shared/api';

/** API Gateway's own payload limit; the 1 MB API rule is enforced by the shared middleware. */
const GATEWAY_MAX_BYTES = 10 * 1024 * 1024;
const TEXT_TYPES = /^(application\/(.+\+)?json|text\/|application\/x-www-form-urlencoded)/;

async function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > GATEWAY_MAX_BYTES) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function headerMap(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

/** Turns a Node request into the API Gateway HTTP API (payload v2) event that Lambda receives. */
export function toApiGatewayEvent(
  req: IncomingMessage,
  url: URL,
  body: Buffer,
  key: string,
  params: Record<string, string>,
): APIGatewayProxyEventV2 {
  const headers = headerMap(req);
  const query: Record<string, string> = {};
  for (const name of new Set(url.searchParams.keys())) query[name] = url.searchParams.getAll(name).join(',');
  const cookies = req.headers.cookie
    ?.split(';')
    .map((c) => c.trim())
    .filter(Boolean);
  const isText = body.length === 0 || TEXT_TYPES.test(headers['content-type'] ?? '');
  const now = new Date();
  return {
    version: '2.0',
    routeKey: key,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies?.length ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(Object.keys(params).length ? { pathParameters: params } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0]!,
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: key,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: isText ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: body.length > 0 && !isText,
  };
}

function lambdaContext(functionName: string, requestId: string): Context {
  // The API functions' timeout in AWS (functions/src/time-budgets.ts), so local runs see the same remaining time.
  const deadline = Date.now() + API_FUNCTION_TIMEOUT_S * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function send(res: ServerResponse, security: Readonly<Record<string, string>>, result: ApiResponse): void {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) {
    // middy's security headers mark headers to drop (server, x-powered-by) with undefined
    if (v !== undefined && v !== null && v !== '') headers[k.toLowerCase()] = String(v);
  }
  // CloudFront's response-headers policy overrides the handler's values on /api/* too (infra/lib/site.ts).
  Object.assign(headers, security);
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  const body =
    result.body === undefined ? undefined : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  if (body) headers['content-length'] = String(body.length);
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(body);
}

async function handleApi(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  security: Readonly<Record<string, string>>,
): Promise<void> {
  const match = matchRoute(req.method ?? 'GET', url.pathname);
  if (!match) return send(res, security, errorResponse(404, Messages.notFound, 'not_found'));
  if ('malformedPath' in match)
    return send(res, security, errorResponse(400, Messages.malformedPath, 'malformed_path'));
  if ('methodNotAllowed' in match)
    return send(res, security, errorResponse(405, 'Method not allowed', 'method_not_allowed'));
  const body = await readBody(req);
  if (body === 'too-large')
    return send(res, security, errorResponse(413, 'Request body is too large', 'payload_too_large'));
  const group = routeGroup(match.route);
  const handler = groupHandlers[group];
  if (!handler) return send(res, security, errorResponse(404, Messages.notFound, 'not_found'));
  const event = toApiGatewayEvent(req, url, body, routeKey(match.route), match.params);
  send(res, security, await handler(event, lambdaContext(`local-${group}`, event.requestContext.requestId)));
}

/**
 * The local server: every /api request goes through the same Lambda handler AWS runs; everything
 * else is the built SPA, with index.html for client routes. Answers carry the security headers of
 * the CloudFront policy (functions/src/http/security-headers.ts), the browser's uploads allowed to
 * `uploadOrigin` (the local store).
 */
export function createLocalServer(
  options: {
    staticDir?: string;
    uploadOrigin?: string;
    /** The public URL whose host requests must name (host.ts hostAllowed); read per request, as it is set after listening. */
    publicUrl?: () => string;
  } = {},
): Server {
  const security = localSecurityHeaders(options.uploadOrigin);
  const hasStatic = options.staticDir !== undefined && existsSync(options.staticDir);
  const serveStatic = hasStatic
    ? sirv(options.staticDir!, {
        single: true,
        etag: true,
        // Looks files up per request instead of listing them once at start: a rebuild while the app runs
        // (`npm run build` beside `npm start`) is served, not a crash on a file that is gone.
        dev: true,
        // The build writes each text file brotli- and gzip-compressed beside it (frontend/vite.config.ts,
        // precompress): sent by Accept-Encoding with Vary, as CloudFront compresses in AWS.
        brotli: true,
        gzip: true,
        setHeaders: (res, pathname) => {
          res.setHeader(
            'cache-control',
            pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      })
    : undefined;
  return createServer((req, res) => {
    // Every answer carries the deployed security headers (the SPA, its assets, 404s and 503s alike);
    // API answers set them again in send(), over the handler's own.
    for (const [name, value] of Object.entries(security)) res.setHeader(name, value);
    const publicUrl = options.publicUrl?.();
    if (publicUrl && !hostAllowed(req.headers.host, publicUrl)) {
      // DNS rebinding: another site's name pointed at this machine. Its page must not reach the app.
      res.writeHead(421, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(
        `This server answers at ${publicUrl} (or localhost, or its IP address) only. ` +
          'To open it under another name, set PUBLIC_URL to that address (README, Configuration).',
      );
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      handleApi(req, res, url, security).catch((err: unknown) => {
        logger.error('Local server failure', { error: err as Error });
        if (!res.headersSent) send(res, security, errorResponse(500, Messages.internal, 'internal'));
        else res.end();
      });
      return;
    }
    if (serveStatic) return serveStatic(req, res);
    res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('The front end is not built. Run `npm start` (it builds it) or `npm run build`.');
  });
}
