import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { MAX_BODY_BYTES, Messages } from '@app/shared';
import { routes, type RouteDef } from '@app/shared/api';
import { Client, drafted, registration, startTestApp, type CallOptions, type TestApp } from './helpers/app.js';
import { EXAMPLE_BODIES, exampleBody } from './helpers/example-bodies.js';

/**
 * Bad input, generated from the route table and its zod schemas (docs/testing.md): requests over
 * 1 MB, malformed JSON and schema violations answer 400 with a clear message and change nothing.
 * For every route that takes a body: malformed and non-object JSON, no body, a body
 * that is not JSON, one over 1 MB, each required field missing, each field with values of the
 * wrong type, each string one character over its maximum, each text field with a control or
 * text-direction character (NUL, U+202E), unknown fields. For every route with
 * path parameters: ids that do not exist (404) and malformed ids. For every query string: values
 * of the wrong form, over-long values, unknown parameters. Each case must answer 4xx with a
 * clear `message` (an OAuth callback may instead redirect with an error), never 5xx, and the
 * table must be unchanged afterwards. A new route or field is covered without editing this file.
 */
let app: TestApp;
let admin: Client;
let anonymous: Client;
let articleId: string;
let pendingUserId: string;
const settingKey = 'bad_input_probe';
const MARKER = 'UNEXPECTED-FIELD-MARKER';

// ---------------------------------------------------------------------------------------------
// Reading zod (v4) schemas

type Def = {
  type: string;
  innerType?: ZodType;
  in?: ZodType;
  out?: ZodType;
  options?: ZodType[];
  entries?: Record<string, unknown>;
  values?: unknown[];
  catchall?: ZodType;
  shape?: Record<string, ZodType>;
};
const defOf = (schema: ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;
const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nonoptional', 'readonly', 'catch', 'nullable']);

/** The schema and every schema it wraps or pipes through. */
function nodes(schema: ZodType): ZodType[] {
  const def = defOf(schema);
  const inner = [def.innerType, def.in, def.out, ...(def.options ?? [])].filter((s): s is ZodType => s !== undefined);
  return [schema, ...inner.flatMap(nodes)];
}

const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** The JSON kinds (string, number, boolean, null, object, array) a schema can accept at all. */
function acceptedKinds(schema: ZodType): Set<string> {
  const def = defOf(schema);
  if (def.type === 'nullable') return new Set(['null', ...acceptedKinds(def.innerType!)]);
  if (WRAPPERS.has(def.type)) return acceptedKinds(def.innerType!);
  if (def.type === 'pipe') return acceptedKinds(def.in!);
  if (def.type === 'union') return new Set(def.options!.flatMap((o) => [...acceptedKinds(o)]));
  if (def.type === 'enum') return new Set(Object.values(def.entries!).map(kindOf));
  if (def.type === 'literal') return new Set(def.values!.map(kindOf));
  if (def.type === 'int' || def.type === 'bigint') return new Set(['number']);
  if (['string', 'number', 'boolean', 'object', 'array', 'null'].includes(def.type)) return new Set([def.type]);
  return new Set(['string', 'number', 'boolean', 'null', 'object', 'array']); // any, unknown, custom…
}

/**
 * The maximum length of a string field: the smallest `max` anywhere along its pipes (an e-mail
 * is limited before its format check, a setting key after its normalization). `null` when the
 * field takes text without any limit; undefined when it takes no text.
 */
/** A zod/mini string's max_length check, if any. */
const miniMaxLength = (schema: ZodType): number | undefined =>
  (
    (schema as unknown as { _zod: { def: { checks?: { _zod: { def: { check: string; maximum?: number } } }[] } } })._zod
      .def.checks ?? []
  ).find((check) => check._zod.def.check === 'max_length')?._zod.def.maximum;

function maxLength(schema: ZodType): number | null | undefined {
  const strings = nodes(schema).filter((s) => defOf(s).type === 'string');
  if (!strings.length) return undefined;
  const limits = strings
    // (classic zod's getter; a zod/mini schema has only its checks)
    .map((s) => (s as unknown as { maxLength?: number | null }).maxLength ?? miniMaxLength(s))
    .filter((n): n is number => typeof n === 'number');
  return limits.length ? Math.min(...limits) : null;
}

const shapeOf = (schema: ZodType): Record<string, ZodType> => defOf(schema).shape ?? {};
const isStrict = (schema: ZodType) =>
  defOf(schema).catchall !== undefined && defOf(defOf(schema).catchall!).type === 'never';
const isRequired = (field: ZodType) => !field.safeParse(undefined).success;
const enumOptions = (field: ZodType): string[] =>
  nodes(field).flatMap((s) => (defOf(s).type === 'enum' ? Object.values(defOf(s).entries!).map(String) : []));

const WRONG_TYPED = [42, true, 'text', null, { nested: 'object' }, ['array']];

// ---------------------------------------------------------------------------------------------
// Running cases

interface Case {
  label: string;
  path: string;
  options: CallOptions;
  /**
   * 'refused' (default): 4xx with a clear message, nothing written. 'notFound': the same, as a 404.
   * 'lenient': anything but 5xx, nothing written. 'stripped': anything but 5xx, MARKER stored nowhere.
   */
  expect?: 'refused' | 'notFound' | 'lenient' | 'stripped';
  /** The message must not match this (e.g. "… is required" for a value that is only too long). */
  misleading?: RegExp;
  /** Sent with node:http rather than fetch, past the secrets check's recording of requests (which walks bodies recursively). */
  plainHttp?: boolean;
}

type Answer = { status: number; json: any; text: string; headers: Headers };

/** zod's own wording names no field ("Invalid input: expected string, received number"). */
const ZOD_WORDING =
  /^(Invalid input|Too big|Too small|Invalid option|Invalid string|Invalid email|Invalid element|Invalid key|Invalid value|Unrecognized key)|expected [a-z]+, received/;

/** Why the answer is not a clear refusal, or undefined when it is. */
function problem(route: RouteDef, res: Answer, { expect: expected, misleading }: Case): string | undefined {
  if (expected === 'stripped' || expected === 'lenient')
    return res.status >= 500 ? `answered ${res.status}: ${res.text.slice(0, 200)}` : undefined;
  // The OAuth callbacks are a browser's landing page: they may refuse by redirecting with an error.
  if (route.access === 'public' && route.method === 'GET' && res.status >= 300 && res.status < 400) {
    const location = res.headers.get('location') ?? '';
    return /[?&][a-z_]*error=/.test(location) ? undefined : `redirected to ${location} without an error`;
  }
  if (expected === 'notFound' && res.status !== 404)
    return `answered ${res.status} instead of 404: ${res.text.slice(0, 200)}`;
  if (res.status < 400 || res.status >= 500) return `answered ${res.status}: ${res.text.slice(0, 200)}`;
  const message: unknown = res.json?.message;
  if (typeof message !== 'string' || message.trim().length < 5) return `no clear message: ${res.text.slice(0, 200)}`;
  if (/^\s*[[{]/.test(message) || message === Messages.internal || /internal server error/i.test(message))
    return `unclear message: ${message}`;
  if (ZOD_WORDING.test(message)) return `zod's wording, naming no field: "${message}"`;
  if (misleading?.test(message)) return `misleading message: "${message}"`;
  if (/: ?(,|$)/.test(message)) return `a name is missing from the message: "${message}"`;
  if (res.json.error !== message) return `error and message differ: ${res.text.slice(0, 200)}`;
  return undefined;
}

type Item = Record<string, unknown>;
const itemKey = (item: Item) => `${item.PK} ${item.SK}`;
function changes(before: Item[], after: Item[]): string | undefined {
  const was = new Map(before.map((i) => [itemKey(i), JSON.stringify(i)]));
  const now = new Map(after.map((i) => [itemKey(i), JSON.stringify(i)]));
  const out: string[] = [];
  for (const [k, v] of now)
    if (!was.has(k)) out.push(`added ${k}`);
    else if (was.get(k) !== v) out.push(`changed ${k}`);
  for (const k of was.keys()) if (!now.has(k)) out.push(`deleted ${k}`);
  return out.length ? out.join(', ') : undefined;
}

/** A request with a body, by node:http, as the route's caller. */
function plainHttpCall(route: RouteDef, c: Case): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = c.options.rawBody ?? '';
    const headers = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      ...(route.access !== 'public' && admin.cookie ? { cookie: admin.cookie } : {}),
    };
    const req = httpRequest(`${app.url}${c.path}`, { method: route.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers))
          if (typeof value === 'string') answerHeaders.set(name, value);
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, json, text, headers: answerHeaders });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** One call as the route's caller: the admin, or for public routes a browser without a session (which does not follow a redirect). */
async function call(route: RouteDef, c: Case): Promise<Answer> {
  if (c.plainHttp) return plainHttpCall(route, c);
  if (route.access !== 'public') return admin.call(c.path, { method: route.method, ...c.options });
  if (route.method !== 'GET') return anonymous.call(c.path, { method: route.method, ...c.options });
  const res = await fetch(`${app.url}${c.path}`, { redirect: 'manual' });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, headers: res.headers };
}

/** Runs the cases one by one; returns every failure, so that one run shows all of them. */
async function run(route: RouteDef, cases: Case[]): Promise<string[]> {
  const failures: string[] = [];
  // One scan per case: the table after one case is the table before the next.
  let before = await app.items();
  for (const c of cases) {
    const label = `${route.id} ${c.label}`;
    let res: Answer;
    try {
      res = await call(route, c);
    } catch (err) {
      failures.push(`${label}: the request failed (${(err as Error).message})`);
      before = await app.items();
      continue;
    }
    const after = await app.items();
    const why = problem(route, res, c);
    if (why) failures.push(`${label}: ${why}`);
    if (c.expect === 'stripped') {
      if (JSON.stringify(after).includes(MARKER)) failures.push(`${label}: the unknown field was stored`);
    } else {
      const written = changes(before, after);
      if (written) failures.push(`${label}: wrote ${written}`);
    }
    before = after;
  }
  return failures;
}

// ---------------------------------------------------------------------------------------------
// Generating cases

const paramNames = (route: RouteDef) => [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/** An existing value per path parameter, so that only the case's own fault can refuse the call. */
function existing(route: RouteDef, name: string): string {
  if (name === 'key') return settingKey;
  // Admin routes act on users; every other id names one of the caller's articles.
  if (name === 'id' && route.access === 'admin') return pendingUserId;
  return articleId;
}

function pathOf(route: RouteDef, overrides: Record<string, string> = {}, query = ''): string {
  const path = route.path.replace(
    /\{(\w+)\}/g,
    (_m, name: string) => overrides[name] ?? encodeURIComponent(existing(route, name)),
  );
  return query ? `${path}?${query}` : path;
}

const json = (body: unknown): CallOptions => ({ body });
const raw = (rawBody: string, headers?: Record<string, string>): CallOptions => ({
  rawBody,
  ...(headers ? { headers } : {}),
});
const without = (body: Record<string, unknown>, name: string) =>
  Object.fromEntries(Object.entries(body).filter(([k]) => k !== name));
const longer = (value: unknown, length: number) => {
  const start = typeof value === 'string' ? value.slice(0, length) : '';
  return start + 'a'.repeat(length - start.length);
};

/**
 * Characters no stored text may contain (shared/src/text.ts): one control character and one
 * text-direction override, put into every text field of every body.
 */
const UNSAFE_CHARACTERS = [
  ['NUL', '\u0000'],
  ['U+202E (right-to-left override)', '\u202e'],
] as const;

/**
 * Text fields that take such characters on purpose, and why. Anything not listed here must refuse them.
 * Passwords typed to prove who one is are compared with a stored hash, never stored or shown, and
 * an account made before the rule may have one with such a character: refusing it would lock it out.
 * The setup code is compared with the configured one and never stored (and ignored once an admin exists).
 */
const UNSAFE_CHARACTERS_ALLOWED = new Set([
  'auth.login password',
  'auth.changePassword currentPassword',
  'auth.register setupCode',
]);

/** The example's text with `ch` in the middle (so that trimming cannot drop it), or a plain text with it. */
const withCharacter = (value: unknown, ch: string) => {
  const text = typeof value === 'string' && value ? value : 'some text';
  const middle = Math.ceil(text.length / 2);
  return `${text.slice(0, middle)}${ch}${text.slice(middle)}`;
};

/** Deep enough to overflow the stack of any code that recurses over a body. */
const NESTING = 100_000;

/** Ids in a body that name something stored: values that name nothing. */
const DANGLING_REFERENCES: Record<string, string> = {
  articleId: 'no-such-article-0000',
  spreadsheetId: 'noSuchSpreadsheet0000',
  token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJuby1zdWNoLXVzZXIifQ.' + 'A'.repeat(43),
};

function bodyCases(route: RouteDef): Case[] {
  const schema = route.body!();
  const example = exampleBody(route.id, articleId)!;
  const path = pathOf(route);
  const exampleJson = JSON.stringify(example);
  const cases: Case[] = [
    { label: 'with malformed JSON', path, options: raw('{"title": "unterminated') },
    { label: 'with truncated JSON', path, options: raw(exampleJson.slice(0, -1)) },
    { label: 'with JSON with a trailing comma', path, options: raw(exampleJson.replace(/\}$/, ',}')) },
    { label: 'without a body', path, options: {} },
    { label: 'with an empty body', path, options: raw('') },
    { label: 'with the body as text/plain', path, options: raw(exampleJson, { 'content-type': 'text/plain' }) },
    {
      label: 'with the body as a form',
      path,
      options: raw('a=1&b=2', { 'content-type': 'application/x-www-form-urlencoded' }),
    },
    ...[[], [example], 'text', null, 42, true].map((value) => ({
      label: `with the JSON ${JSON.stringify(value).slice(0, 30)} as body`,
      path,
      options: raw(JSON.stringify(value)),
    })),
    {
      label: 'with deeply nested JSON',
      path,
      options: raw(`{"a":${'['.repeat(NESTING)}${']'.repeat(NESTING)}}`),
      plainHttp: true,
    },
    {
      label: 'with a body over 1 MB',
      path,
      options: raw(JSON.stringify({ ...example, padding: 'a'.repeat(MAX_BODY_BYTES) })),
    },
    {
      label: 'with a body over 1 MB of multi-byte text',
      path,
      options: raw(JSON.stringify({ ...example, padding: 'é'.repeat(MAX_BODY_BYTES / 2 + 1) })),
    },
  ];
  if (!schema.safeParse({}).success) cases.push({ label: 'with an empty object', path, options: json({}) });

  const stripped = !isStrict(schema);
  cases.push({
    label: 'with an unknown field',
    path,
    options: json({ ...example, unexpectedField: MARKER }),
    expect: stripped ? 'stripped' : 'refused',
  });
  for (const key of ['__proto__', 'constructor']) {
    const body = `{"${key}":{"role":"admin","marker":"${MARKER}"}${exampleJson === '{}' ? '}' : `,${exampleJson.slice(1)}`}`;
    cases.push({ label: `with a ${key} field`, path, options: raw(body), expect: stripped ? 'stripped' : 'refused' });
  }

  for (const [name, field] of Object.entries(shapeOf(schema))) {
    if (isRequired(field)) cases.push({ label: `without ${name}`, path, options: json(without(example, name)) });
    const kinds = acceptedKinds(field);
    for (const value of WRONG_TYPED) {
      const body = { ...example, [name]: value };
      if (kinds.has(kindOf(value)) || schema.safeParse(body).success) continue;
      cases.push({ label: `with ${name} = ${JSON.stringify(value)}`, path, options: json(body) });
    }
    const max = maxLength(field);
    if (typeof max === 'number' && max < MAX_BODY_BYTES) {
      cases.push({
        label: `with ${name} of ${max + 1} characters`,
        path,
        options: json({ ...example, [name]: longer(example[name], max + 1) }),
        misleading: /required/i,
      });
    }
    if (kinds.has('string') && !UNSAFE_CHARACTERS_ALLOWED.has(`${route.id} ${name}`)) {
      for (const [what, ch] of UNSAFE_CHARACTERS) {
        cases.push({
          label: `with ${name} containing ${what}`,
          path,
          options: json({ ...example, [name]: withCharacter(example[name], ch) }),
        });
      }
    }
    if (name in DANGLING_REFERENCES) {
      cases.push({
        label: `with a ${name} that names nothing`,
        path,
        options: json({ ...example, [name]: DANGLING_REFERENCES[name] }),
      });
    }
  }
  return cases;
}

function paramCases(route: RouteDef): Case[] {
  const example = exampleBody(route.id, articleId);
  const options: CallOptions = example === undefined ? {} : json(example);
  const shape = shapeOf(route.params!());
  return paramNames(route).flatMap((name) => {
    const max = maxLength(shape[name]!) ?? 64;
    const malformed = [
      'bad%20id!',
      'a'.repeat(max + 1),
      '%ZZ',
      '%E0%A4%A',
      '%2E%2E',
      '..%2F..%2Fetc',
      '%C3%A9t%C3%A9',
      '%00',
      "x'%20OR%20'1'%3D'1",
    ];
    return [
      {
        label: `with a ${name} that does not exist`,
        path: pathOf(route, { [name]: `no-such-${name.toLowerCase()}-0000` }),
        options,
        expect: 'notFound' as const,
      },
      ...malformed.map((value) => ({
        label: `with the ${name} ${value.length > max ? `of ${value.length} characters` : value}`,
        path: pathOf(route, { [name]: value }),
        options,
        misleading: /required/i,
      })),
    ];
  });
}

function queryCases(route: RouteDef): Case[] {
  const schema = route.query!();
  const cases: Case[] = [];
  for (const [name, field] of Object.entries(shapeOf(schema))) {
    for (const value of ['not-a-choice', '', '12345', 'true,false', '[object Object]']) {
      if (schema.safeParse({ [name]: value }).success) continue;
      cases.push({
        label: `with ?${name}=${value}`,
        path: pathOf(route, {}, `${name}=${encodeURIComponent(value)}`),
        options: {},
      });
    }
    const [option] = enumOptions(field);
    if (option !== undefined) {
      cases.push({
        label: `with ?${name} twice`,
        path: pathOf(route, {}, `${name}=${option}&${name}=${option}`),
        options: {},
      });
    }
    const max = maxLength(field);
    if (typeof max === 'number') {
      cases.push({
        label: `with ?${name} of ${max + 1} characters`,
        path: pathOf(route, {}, `${name}=${'a'.repeat(max + 1)}`),
        options: {},
        misleading: /required/i,
      });
    }
  }
  cases.push({
    label: 'with an unknown query parameter',
    path: pathOf(route, {}, `unexpected=${MARKER}`),
    options: {},
    expect: isStrict(schema) ? 'refused' : 'stripped',
  });
  // Not %-encoding, an empty name, an empty pair: strict schemas refuse the unknown (empty) name, the others may ignore it all.
  const malformed = `${Object.keys(shapeOf(schema))[0] ?? 'x'}=%ZZ&=&&%E0%A4%A`;
  cases.push({
    label: 'with a malformed query string',
    path: pathOf(route, {}, malformed),
    options: {},
    expect: isStrict(schema) ? 'refused' : 'lenient',
  });
  return cases;
}

// ---------------------------------------------------------------------------------------------

const bodyRoutes = routes.filter((r): r is typeof r & { body: () => ZodType } => 'body' in r && r.body !== undefined);
const paramRoutes = routes.filter(
  (r): r is typeof r & { params: () => ZodType } => 'params' in r && r.params !== undefined,
);
const queryRoutes = routes.filter(
  (r): r is typeof r & { query: () => ZodType } => 'query' in r && r.query !== undefined,
);

beforeAll(async () => {
  app = await startTestApp();
  admin = new Client(app.url);
  anonymous = new Client(app.url);
  await admin.call('/api/auth/register', { body: registration() });
  const pending = registration();
  await new Client(app.url).call('/api/auth/register', { body: pending });
  pendingUserId = (await admin.call('/api/admin/users')).json.users.find(
    (u: { email: string }) => u.email === pending.email,
  )._id;
  articleId = (await admin.call('/api/articles', { body: { title: 'Bad input probe', topic: 'Refusals' } })).json
    .article._id;
  await drafted(admin, articleId);
  await admin.call('/api/settings', { body: { key: settingKey, value: 'probe-value' } });
}, 60_000);
afterAll(() => app?.stop());

describe('the schemas behind the route table', () => {
  it('have a valid example body for every route that takes one', () => {
    for (const route of bodyRoutes) {
      expect(EXAMPLE_BODIES[route.id], `${route.id} has no example body in helpers/example-bodies.ts`).toBeDefined();
      const parsed = route.body().safeParse(exampleBody(route.id, 'abc123'));
      expect(parsed.success, `${route.id}'s example body: ${parsed.error?.message}`).toBe(true);
    }
  });

  it('are objects, and limit the length of every text field', () => {
    const unlimited: string[] = [];
    for (const route of routes) {
      for (const part of ['body', 'query', 'params'] as const) {
        const schema = (route as RouteDef)[part]?.();
        if (!schema) continue;
        expect(defOf(schema).type, `${route.id} ${part}`).toBe('object');
        for (const [name, field] of Object.entries(shapeOf(schema)))
          if (maxLength(field) === null) unlimited.push(`${route.id} ${part}.${name}`);
      }
    }
    expect(unlimited).toEqual([]);
  });
});

describe('bad bodies answer 4xx with a clear message and write nothing', () => {
  for (const route of bodyRoutes) {
    it(route.id, async () => {
      expect(await run(route, bodyCases(route))).toEqual([]);
    });
  }
});

it('refuses a body over the gateway limit (10 MB) with 413 before reading it all', async () => {
  const route = bodyRoutes.find((r) => r.access !== 'public')!;
  const body = JSON.stringify({ ...exampleBody(route.id, articleId), padding: 'a'.repeat(10 * MAX_BODY_BYTES + 1) });
  expect(await run(route, [{ label: 'with a body over 10 MB', path: pathOf(route), options: raw(body) }])).toEqual([]);
});

describe('ids that do not exist or are malformed answer 404 or 400 and write nothing', () => {
  for (const route of paramRoutes) {
    it(route.id, async () => {
      expect(await run(route, paramCases(route))).toEqual([]);
    });
  }
});

describe('bad query strings answer 4xx with a clear message and write nothing', () => {
  for (const route of queryRoutes) {
    it(route.id, async () => {
      expect(await run(route, queryCases(route))).toEqual([]);
    });
  }
});
