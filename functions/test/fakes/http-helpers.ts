/** Small helpers shared by the fake services (real node:http servers on 127.0.0.1). */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { trackSecret } from '../helpers/secrets.js';

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer, url: URL) => unknown;

export interface Listening {
  server: Server;
  /** http://127.0.0.1:<port> (no trailing slash) */
  url: string;
  stop(): Promise<void>;
}

/** Starts a server on 127.0.0.1, port 0. Handler exceptions answer 500 so a test sees them. */
export async function listen(handler: Handler): Promise<Listening> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      Promise.resolve(handler(req, res, Buffer.concat(chunks), url)).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { fakeError: String((error as Error)?.stack ?? error) });
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/**
 * How a fake answers one request it has already acted on: after `ms` milliseconds, or 'never'
 * (the client waits until it gives up or the fake stops), as a server that is still busy, or whose
 * answer was lost, does.
 */
export type AnswerHold = number | 'never';

/** Makes `res` send its answer late (or never): the request still has its effect at once. */
export function holdAnswer(res: ServerResponse, hold: AnswerHold): void {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  // writeHead only buffers the status line and headers: nothing reaches the client before end().
  res.end = ((...args: unknown[]) => {
    if (hold !== 'never') setTimeout(() => !res.destroyed && end(...args), hold);
    return res;
  }) as ServerResponse['end'];
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=UTF-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=UTF-8',
    'Content-Length': Buffer.byteLength(html),
    ...headers,
  });
  res.end(html);
}

export function redirect(res: ServerResponse, location: string, status = 302): void {
  res.writeHead(status, { Location: location, 'Content-Length': 0 });
  res.end();
}

/** Request headers as a plain object, without authorization and cookie. */
export function safeHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (key === 'authorization' || key === 'cookie' || value === undefined) continue;
    out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The Bearer token of a request, or undefined. */
export function bearer(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  trackSecret(match?.[1]?.trim(), 'Bearer token (sent to a fake)');
  return match?.[1]?.trim();
}

/** application/x-www-form-urlencoded body (or JSON, if that is what came). */
export function formBody(req: IncomingMessage, body: Buffer): Record<string, string> {
  const text = body.toString('utf8');
  if (/json/i.test(req.headers['content-type'] ?? '')) {
    try {
      const value = JSON.parse(text) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

export function jsonBody(body: Buffer): any {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
