/**
 * A fake OpenAI API: a real HTTP server on 127.0.0.1 that answers the documented shapes of
 *   POST /v1/responses            → a Response object (`object: "response"`, `output[].content[].output_text`;
 *                                   like the real API it carries no `output_text` field, the SDK derives it)
 *   POST /v1/chat/completions     → a ChatCompletion object
 *   POST /v1/images/generations   → `{created, data: [{b64_json}], …}` with a real PNG of the requested size
 * Errors use OpenAI's body shape `{error: {message, type, param, code}}` (docs/integrations.md, OpenAI).
 *
 * Text answers echo the request ("Fake answer from <model>." + instructions + input), so tests can
 * assert what the prompt contained.
 *
 *   const fake = await startFakeOpenAi();   // fake.url = "http://127.0.0.1:<port>/v1", fake.apiKey
 *   fake.setMode('insufficient_quota');      // or rate_limited (once by default), server_error, bad_key, …
 *   fake.requests                            // every request: method, path, headers (no authorization), body
 *   await fake.stop();
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { trackSecret } from '../helpers/secrets.js';

export type FakeOpenAiMode =
  /** normal answers */
  | 'ok'
  /** 429 with the insufficient_quota body (code and type both insufficient_quota) */
  | 'insufficient_quota'
  /** 429 insufficient_quota as older accounts got it: `code: null`, only `type` says so */
  | 'insufficient_quota_legacy'
  /** 429 rate_limit_exceeded with `retry-after-ms`; by default once, then back to ok */
  | 'rate_limited'
  /** 500 server_error */
  | 'server_error'
  /** 401 invalid_api_key whatever key is sent */
  | 'bad_key'
  /** 404 model_not_found */
  | 'model_not_found'
  /** LinkedIn prompts get a 5,000-character post (paragraphs, sentences, a hashtag line) */
  | 'long_linkedin'
  /** answers after `delayMs` */
  | 'slow'
  /** closes the connection without answering */
  | 'disconnect';

export interface ModeOptions {
  /** How many requests the mode applies to before it falls back to 'ok' (rate_limited: 1, others: all). */
  times?: number;
  /** rate_limited: value of the retry-after-ms header (default 50). */
  retryAfterMs?: number;
  /** slow: how long to wait before answering (default 1000); other modes: wait this long, then fail. */
  delayMs?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** Request headers without `authorization`. */
  headers: Record<string, string>;
  /** Whether the Bearer key matched the fake's key. */
  authorized: boolean;
  body: any;
}

export interface FakeOpenAi {
  /** Base URL including /v1, for the SDK's `baseURL` / OPENAI_BASE_URL. */
  url: string;
  /** The key the fake accepts. */
  apiKey: string;
  requests: RecordedRequest[];
  setMode(mode: FakeOpenAiMode, options?: ModeOptions): void;
  /** Back to 'ok' and an empty request log. */
  reset(): void;
  stop(): Promise<void>;
}

export const FAKE_OPENAI_KEY = 'sk-test-fake-openai-key-0123456789';

export const QUOTA_MESSAGE =
  'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.';

const GPT_IMAGE_SIZES = ['1024x1024', '1536x1024', '1024x1536', 'auto'];
const RETIRED_IMAGE_MODELS = ['dall-e-2', 'dall-e-3', 'gpt-image-1'];

export async function startFakeOpenAi(options: { apiKey?: string } = {}): Promise<FakeOpenAi> {
  const apiKey = options.apiKey ?? FAKE_OPENAI_KEY;
  trackSecret(apiKey, 'OpenAI API key (fake)');
  const requests: RecordedRequest[] = [];
  let mode: FakeOpenAiMode = 'ok';
  let modeOptions: ModeOptions = {};
  let remaining = Infinity;
  let counter = 0;
  const pngs = new Map<string, Promise<Buffer>>();

  const setMode = (next: FakeOpenAiMode, opts: ModeOptions = {}) => {
    mode = next;
    modeOptions = opts;
    remaining = opts.times ?? (next === 'rate_limited' ? 1 : Infinity);
  };

  /** The mode for this request, counting down `times`. */
  const currentMode = (): FakeOpenAiMode => {
    if (mode === 'ok') return mode;
    if (remaining <= 0) {
      mode = 'ok';
      return mode;
    }
    remaining--;
    return mode;
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendError(res, 500, (err as Error).message ?? 'fake failure', 'server_error', null);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    let body: any;
    try {
      body = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
    } catch {
      body = raw.toString('utf8');
    }
    const path = (req.url ?? '/').split('?')[0]!;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (k !== 'authorization' && v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    }
    const authorized = req.headers.authorization === `Bearer ${apiKey}`;
    requests.push({ method: req.method ?? 'GET', path, headers, authorized, body });
    res.setHeader('x-request-id', `req_fake_${++counter}`);

    const m = currentMode();
    if (m === 'disconnect') {
      req.socket.destroy();
      return;
    }
    // 'slow' answers late; any other mode given a delayMs fails late (a 500 after a long wait).
    if (m === 'slow' || (m !== 'ok' && modeOptions.delayMs !== undefined))
      await new Promise((r) => setTimeout(r, modeOptions.delayMs ?? 1000));
    if (res.destroyed) return;

    if (m === 'bad_key' || !authorized) {
      const shown = (req.headers.authorization ?? '').replace(/^Bearer\s+/, '');
      return sendError(
        res,
        401,
        shown
          ? `Incorrect API key provided: ${shown.slice(0, 3)}***${shown.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`
          : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
        'invalid_request_error',
        'invalid_api_key',
      );
    }
    if (m === 'insufficient_quota')
      return sendError(res, 429, QUOTA_MESSAGE, 'insufficient_quota', 'insufficient_quota');
    if (m === 'insufficient_quota_legacy') return sendError(res, 429, QUOTA_MESSAGE, 'insufficient_quota', null);
    if (m === 'rate_limited') {
      res.setHeader('retry-after-ms', String(modeOptions.retryAfterMs ?? 50));
      return sendError(
        res,
        429,
        `Rate limit reached for ${body?.model ?? 'the model'} in organization org-fake on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.`,
        'requests',
        'rate_limit_exceeded',
      );
    }
    if (m === 'server_error') {
      return sendError(
        res,
        500,
        'The server had an error while processing your request. Sorry about that!',
        'server_error',
        null,
      );
    }
    if (m === 'model_not_found') {
      return sendError(
        res,
        404,
        `The model \`${body?.model ?? ''}\` does not exist or you do not have access to it.`,
        'invalid_request_error',
        'model_not_found',
      );
    }

    if (req.method !== 'POST')
      return sendError(res, 404, `Invalid URL (${req.method} ${path})`, 'invalid_request_error', null);
    if (typeof body !== 'object' || body === null) {
      return sendError(res, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error', null);
    }
    if (typeof body.model !== 'string' || !body.model) {
      return sendError(
        res,
        400,
        "Missing required parameter: 'model'.",
        'invalid_request_error',
        'missing_required_parameter',
        'model',
      );
    }

    if (path === '/v1/responses') {
      if (body.input === undefined) {
        return sendError(
          res,
          400,
          "Missing required parameter: 'input'.",
          'invalid_request_error',
          'missing_required_parameter',
          'input',
        );
      }
      const instructions = typeof body.instructions === 'string' ? body.instructions : '';
      const input = typeof body.input === 'string' ? body.input : JSON.stringify(body.input);
      const text = answerText(body.model, instructions, input, m === 'long_linkedin');
      return sendJson(res, 200, responseObject(body, instructions, text, counter));
    }

    if (path === '/v1/chat/completions') {
      if (!Array.isArray(body.messages) || !body.messages.length) {
        return sendError(
          res,
          400,
          "Missing required parameter: 'messages'.",
          'invalid_request_error',
          'missing_required_parameter',
          'messages',
        );
      }
      const all = body.messages.map((msg: { content?: unknown }) =>
        typeof msg.content === 'string' ? msg.content : JSON.stringify(msg.content),
      );
      const text = answerText(
        body.model,
        all.slice(0, -1).join('\n\n'),
        all[all.length - 1] ?? '',
        m === 'long_linkedin',
      );
      return sendJson(res, 200, {
        id: `chatcmpl-fake${counter}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: text, refusal: null, annotations: [] },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: usage(all.join(' '), text),
        service_tier: 'default',
        system_fingerprint: null,
      });
    }

    if (path === '/v1/images/generations') {
      if (typeof body.prompt !== 'string' || !body.prompt) {
        return sendError(
          res,
          400,
          "Missing required parameter: 'prompt'.",
          'invalid_request_error',
          'missing_required_parameter',
          'prompt',
        );
      }
      if (RETIRED_IMAGE_MODELS.includes(body.model)) {
        return sendError(
          res,
          404,
          `The model \`${body.model}\` has been deprecated.`,
          'invalid_request_error',
          'model_not_found',
        );
      }
      if ('response_format' in body) {
        return sendError(
          res,
          400,
          "Unknown parameter: 'response_format'.",
          'invalid_request_error',
          'unknown_parameter',
          'response_format',
        );
      }
      const size = body.size ?? 'auto';
      if (!GPT_IMAGE_SIZES.includes(size)) {
        return sendError(
          res,
          400,
          `Invalid value: '${size}'. Supported values are: '1024x1024', '1024x1536', '1536x1024', and 'auto'.`,
          'invalid_request_error',
          'invalid_value',
          'size',
        );
      }
      const n = body.n ?? 1;
      if (!Number.isInteger(n) || n < 1 || n > 10) {
        return sendError(
          res,
          400,
          `Invalid 'n': integer ${n} is out of range.`,
          'invalid_request_error',
          'integer_above_max_value',
          'n',
        );
      }
      const actual = size === 'auto' ? '1024x1024' : size;
      if (!pngs.has(actual)) pngs.set(actual, fakePng(actual));
      const b64 = (await pngs.get(actual)!).toString('base64');
      return sendJson(res, 200, {
        created: Math.floor(Date.now() / 1000),
        background: 'opaque',
        data: Array.from({ length: n }, () => ({ b64_json: b64 })),
        output_format: 'png',
        quality: 'medium',
        size: actual,
        usage: {
          input_tokens: 50,
          input_tokens_details: { image_tokens: 0, text_tokens: 50 },
          output_tokens: 1056,
          total_tokens: 1106,
        },
      });
    }

    return sendError(res, 404, `Invalid URL (${req.method} ${path})`, 'invalid_request_error', null);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    apiKey,
    requests,
    setMode,
    reset() {
      setMode('ok');
      requests.length = 0;
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** True when the prompt asks for (or edits) a LinkedIn post. */
export const isLinkedInPrompt = (instructions: string, input: string): boolean =>
  /linkedin post/i.test(`${instructions}\n${input}`);

function answerText(model: string, instructions: string, input: string, long: boolean): string {
  if (long && isLinkedInPrompt(instructions, input)) return longLinkedInPost();
  return `Fake answer from ${model}.\n\nInstructions:\n${instructions}\n\nInput:\n${input}`;
}

/**
 * 5,000 characters: paragraphs of four numbered sentences, then a hashtag line. Every sentence ends
 * with "." so a test can tell a boundary cut from a mid-word one.
 */
export function longLinkedInPost(): string {
  const tags = '#ContentAutomation #Marketing #AI';
  const target = 5000 - tags.length - 2;
  let body = 'This hook line stops the scroll.';
  for (let n = 1; body.length < target; n++) {
    body += `${n % 4 === 1 ? '\n\n' : ' '}Sentence ${n} explains one more practical idea about publishing content well.`;
  }
  return `${body.slice(0, target).replace(/\s$/, '.')}\n\n${tags}`;
}

function responseObject(body: any, instructions: string, text: string, n: number) {
  const now = Math.floor(Date.now() / 1000);
  return {
    id: `resp_fake${n}`,
    object: 'response',
    created_at: now,
    completed_at: now,
    status: 'completed',
    background: false,
    error: null,
    incomplete_details: null,
    instructions: instructions || null,
    max_output_tokens: body.max_output_tokens ?? null,
    metadata: {},
    model: body.model,
    output: [
      {
        type: 'message',
        id: `msg_fake${n}`,
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
      },
    ],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: body.store ?? true,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: usage(`${instructions} ${body.input}`, text),
    user: null,
  };
}

function usage(prompt: string, answer: string) {
  const input_tokens = Math.ceil(prompt.length / 4);
  const output_tokens = Math.ceil(answer.length / 4);
  return {
    input_tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input_tokens + output_tokens,
    prompt_tokens: input_tokens,
    completion_tokens: output_tokens,
  };
}

/** A real PNG: a gradient with a bright disc off-centre, so crops have something to find. */
async function fakePng(size: string): Promise<Buffer> {
  const [width, height] = size.split('x').map(Number) as [number, number];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0b3d91"/><stop offset="1" stop-color="#0e7490"/></linearGradient></defs>
  <rect width="${width}" height="${height}" fill="url(#g)"/>
  <circle cx="${Math.round(width * 0.55)}" cy="${Math.round(height * 0.5)}" r="${Math.round(height * 0.22)}" fill="#fde047"/>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
): void {
  sendJson(res, status, { error: { message, type, param, code } });
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
