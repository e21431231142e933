/**
 * `npm run bench -- scale` (part of `npm run bench`, scripts/bench/index.ts): the cost of the screens'
 * calls does not grow with how much a user has published (docs/testing.md, Performance budgets).
 *
 * One local stack (DynamoDB Local in memory, the API server with the production handlers and stores),
 * two accounts with the same ten open articles: one with 100 articles in all, one with 10,000, the rest
 * published on both platforms over the past year (seed.ts, scaleArticles). For each account, side by
 * side: the p50 of GET /api/articles/unpublished, the first History page (GET /api/articles/published)
 * and GET /api/dashboard, each right after a change to the owner's articles (the cold path: the
 * per-container answer and the browser's copy are stale, so the answer is read from DynamoDB again),
 * and the read units each call consumes, as DynamoDB reports them (ReturnConsumedCapacity TOTAL set on
 * every command of the client the stores use). Budget: at 10,000 articles each at most 1.5× its figure
 * at 100. Also the Schedule page's poll while nothing changed (If-None-Match: 304): no read besides the
 * session's user. The same again for two team workspaces of TEAM_MEMBERS members each (100 and 10,000
 * articles), read by one of their members with X-Workspace: the workspace and the member are read on
 * every call, and nothing else may grow with the workspace's history or its members.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { call } from './http.js';
import { percentile } from './load.js';

type Cleanup = () => Promise<void>;
type AddRow = (what: string, measured: string, budget?: string, ok?: boolean) => void;

const SIZES = [100, 10_000] as const;
/** The team case: two team workspaces of this many members (one owner), one of each size, read by a member. */
const TEAM_MEMBERS = 10;
const TEAM_ROLES = [
  'owner',
  'editor',
  'editor',
  'writer',
  'writer',
  'writer',
  'reviewer',
  'reviewer',
  'reviewer',
  'reviewer',
] as const;
const WARM_UP = 5;
const CALLS = 30;
const BUDGET_RATIO = 1.5;
/** Seeding both accounts should take well under this (issue #16). */
const SEED_BUDGET_MS = 120_000;

const CALLS_MEASURED = [
  { name: 'GET /api/articles (first page)', path: '/api/articles' },
  { name: 'GET /api/articles/unpublished', path: '/api/articles/unpublished' },
  { name: 'GET /api/articles/published (first page)', path: '/api/articles/published' },
  { name: 'GET /api/dashboard', path: '/api/dashboard' },
] as const;

const progress = (text: string) => console.log(`· ${text}`);

/** A DynamoDB command as it went by: its name, what it read, and the read units DynamoDB reported. */
interface CommandRead {
  command: string;
  target: string;
  readUnits: number;
  /** Whether DynamoDB said nothing of its capacity (then readUnits is 0 and the figure is wrong). */
  unreported: boolean;
}

interface ConsumedCapacity {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
}

/**
 * Asks DynamoDB for the consumed capacity of every command sent through `db` (ReturnConsumedCapacity
 * TOTAL) and records the read units of each, so that a call's cost is the sum of what it sent. A write
 * command's units are write units and are not counted.
 */
function recordReads(db: DynamoDBDocumentClient): { reads: CommandRead[] } {
  const recorder = { reads: [] as CommandRead[] };
  const READS = new Set(['GetItemCommand', 'QueryCommand', 'ScanCommand', 'BatchGetItemCommand']);
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const command = context.commandName ?? 'command';
      if (READS.has(command)) {
        const output = result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] };
        const consumed = output.ConsumedCapacity;
        const list = consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed];
        const readUnits = list.reduce((sum, c) => sum + (c.ReadCapacityUnits ?? c.CapacityUnits ?? 0), 0);
        recorder.reads.push({ command, target: targetOf(input), readUnits, unreported: consumed === undefined });
      }
      return result;
    },
    { step: 'initialize', name: 'benchConsumedCapacity', override: true },
  );
  return recorder;
}

/** What a command read, for the breakdown: the index, or the key's sort key prefix. */
function targetOf(input: Record<string, unknown>): string {
  const text = (v: unknown) => (typeof v === 'string' ? v : ((v as { S?: string } | undefined)?.S ?? ''));
  if (typeof input.IndexName === 'string') return input.IndexName;
  // A BatchGet: the kinds of items it asked for (PROFILE+MEMBER: a team workspace and its member).
  const requested = input.RequestItems as Record<string, { Keys?: Record<string, unknown>[] }> | undefined;
  if (requested) {
    const kinds = Object.values(requested).flatMap((r) => (r.Keys ?? []).map((k) => text(k.SK).split('#')[0]!));
    return [...new Set(kinds)].join('+') || 'batch';
  }
  const key = input.Key as Record<string, unknown> | undefined;
  if (key) return text(key.SK).split('#')[0]!;
  const values = input.ExpressionAttributeValues as Record<string, unknown> | undefined;
  const prefix = values && (values[':prefix'] ?? values[':from']);
  if (prefix !== undefined) return text(prefix).split('#')[0]!;
  return 'batch';
}

interface Account {
  size: number;
  /** `personal`: an account's own articles; `team`: a team workspace's, read by one of its members. */
  kind: 'personal' | 'team';
  /** Whose articles: the account's id, or the team workspace's (sent as X-Workspace). */
  userId: string;
  workspace?: string;
  cookie: string;
  /** An article the bench changes before each cold call, as an edit would. */
  touchId: string;
}

/** How an account is named in the output and the samples: its size, and "team" for the team case. */
const labelOf = (account: Pick<Account, 'kind' | 'size'>) => `${account.kind === 'team' ? 'team ' : ''}${account.size}`;

interface Sample {
  ms: number;
  readUnits: number;
  sessionUnits: number;
  /** A team workspace's read of the workspace and the member (middleware/workspace.ts). */
  accessUnits: number;
  status: number;
  etag: string | null;
  body: string;
}

export async function measureScale(onCleanup: (fn: Cleanup) => void, row: AddRow): Promise<void> {
  const { startLocalStack } = await import('../../functions/src/local/stack.js');
  const { createDocumentClient, queryAll } = await import('../../functions/src/adapters/dynamo/client.js');
  const { DynamoArticleStore } = await import('../../functions/src/adapters/dynamo/article-store.js');
  const { DynamoSummaryStore } = await import('../../functions/src/adapters/dynamo/summary-store.js');
  const { backfillArticleIndexes } = await import('../../functions/src/adapters/dynamo/article-index-backfill.js');
  const { deps } = await import('../../functions/src/wiring/deps.js');
  const { DynamoWorkspaceStore } = await import('../../functions/src/adapters/dynamo/workspace-store.js');
  const { batchWriteArticles, scaleArticles, SCALE_OPEN_ARTICLES } = await import('./seed.js');

  const dataDir = mkdtempSync(join(tmpdir(), 'cp-bench-scale-'));
  onCleanup(async () => rmSync(dataDir, { recursive: true, force: true }));
  const tableName = `bench-scale-${randomBytes(4).toString('hex')}`;
  process.env.SESSION_SECRET = randomBytes(32).toString('hex');
  // Left by a part that ran before in this process (the stack part): this stack sets its own.
  for (const name of ['PUBLIC_URL', 'PORT', 'OUTBOX_DIR']) delete process.env[name];
  progress('scale: starting the local stack (DynamoDB Local in memory, the API server)…');
  const stack = await startLocalStack({ port: 0, host: '127.0.0.1', dataDir, tableName, inMemory: true });
  onCleanup(() => stack.stop());
  const api = `http://127.0.0.1:${stack.port}`;
  // The client every store of the API uses in this process (the local server calls the Lambda handlers here).
  const recorder = recordReads(deps().db);
  // The bench's own writes go through a client of their own, so that they are never counted.
  const db = createDocumentClient({
    region: process.env.AWS_REGION ?? 'us-east-1',
    dynamoEndpoint: stack.dynamoEndpoint,
  });
  onCleanup(async () => db.destroy());
  const store = new DynamoArticleStore(db, tableName);

  const request = (path: string, init: Parameters<typeof call>[1] = {}) => call(`${api}${path}`, init);
  const cookieOf = (res: Response) => {
    const cookie = res.headers.getSetCookie()[0]?.split(';')[0];
    if (!cookie) throw new Error('no session cookie was set');
    return cookie;
  };

  // Two accounts: the first registration is the admin (signed in at once); the admin activates the second.
  const password = 'correct horse battery';
  const register = (email: string) =>
    request('/api/auth/register', {
      body: { name: 'Scale', surname: email.split('@')[0], email, password, timezone: 'Europe/London' },
    });
  const first = await register('small@example.com');
  const adminCookie = cookieOf(first.res);
  await register('large@example.com');
  const users = await request('/api/admin/users', { cookie: adminCookie });
  const largeId = (users.json.users as { _id: string; email: string }[]).find(
    (u) => u.email === 'large@example.com',
  )?._id;
  if (!largeId) throw new Error('the second account is not in the admin list');
  await request(`/api/admin/users/${largeId}/status`, {
    method: 'PATCH',
    body: { isActive: true },
    cookie: adminCookie,
  });
  const login = await request('/api/auth/login', { body: { email: 'large@example.com', password } });
  const ids = [first.json.user._id as string, largeId];
  const cookies = [adminCookie, cookieOf(login.res)];

  // The team case: TEAM_MEMBERS accounts (registered, activated by the admin), two team workspaces with all of
  // them as members (the store's own writes: the workspace and its owner, then an invitation accepted per
  // member), and the writer signed in to read them.
  progress(`scale: ${TEAM_MEMBERS} accounts and two team workspaces of ${TEAM_MEMBERS} members…`);
  const members: { id: string; email: string; name: string }[] = [];
  for (let i = 0; i < TEAM_MEMBERS; i++) {
    const email = `member${i}@example.com`;
    await register(email);
    members.push({ id: '', email, name: `Scale member${i}` });
  }
  const listed = (await request('/api/admin/users', { cookie: adminCookie })).json.users as {
    _id: string;
    email: string;
  }[];
  for (const member of members) {
    member.id = listed.find((u) => u.email === member.email)?._id ?? '';
    if (!member.id) throw new Error(`${member.email} is not in the admin list`);
    await request(`/api/admin/users/${member.id}/status`, {
      method: 'PATCH',
      body: { isActive: true },
      cookie: adminCookie,
    });
  }
  const workspaceStore = new DynamoWorkspaceStore(db, tableName);
  const teamIds: string[] = [];
  for (const size of SIZES) {
    const id = `bench-team-${size}-${randomBytes(4).toString('hex')}`;
    const at = new Date().toISOString();
    const [owner, ...others] = members;
    await workspaceStore.create(
      { id, name: `Team of ${size}`, createdAt: at, createdBy: owner!.id, owners: 1 },
      { workspaceId: id, userId: owner!.id, role: 'owner', joinedAt: at, name: owner!.name, email: owner!.email },
    );
    for (const [i, member] of others.entries()) {
      const invitation = {
        id: randomBytes(12).toString('base64url'),
        workspaceId: id,
        workspaceName: `Team of ${size}`,
        email: member.email,
        role: TEAM_ROLES[i + 1]!,
        invitedBy: owner!.id,
        invitedByName: owner!.name,
        createdAt: at,
        expiresAt: Math.floor(Date.now() / 1000) + 86_400,
        tokenHash: randomBytes(32).toString('hex'),
      };
      await workspaceStore.putInvitation(invitation);
      const outcome = await workspaceStore.accept(invitation, {
        workspaceId: id,
        userId: member.id,
        role: invitation.role,
        joinedAt: at,
        name: member.name,
        email: member.email,
      });
      if (outcome !== 'accepted') throw new Error(`${member.email} did not join ${id}: ${outcome}`);
    }
    teamIds.push(id);
  }
  const reader = members[TEAM_ROLES.indexOf('writer')]!;
  const readerLogin = await request('/api/auth/login', { body: { email: reader.email, password } });
  const readerCookie = cookieOf(readerLogin.res);

  // Seeding: the articles as the store writes them, then the production backfills (the indexes, which must
  // find nothing to fix, and the dashboard summary), then one store write, which moves the list version.
  const seedStart = performance.now();
  const accounts: Account[] = [];
  const owners = [
    ...SIZES.map((size, i) => ({ size, kind: 'personal' as const, userId: ids[i]!, cookie: cookies[i]! })),
    ...SIZES.map((size, i) => ({
      size,
      kind: 'team' as const,
      userId: teamIds[i]!,
      workspace: teamIds[i]!,
      cookie: readerCookie,
    })),
  ];
  for (const owner of owners) {
    progress(
      `scale: writing ${owner.size.toLocaleString('en-US')} articles of the ${owner.kind} case (BatchWriteItem, the store's item shape)…`,
    );
    const articles = scaleArticles(owner.userId, owner.size);
    await batchWriteArticles(db, tableName, articles);
    await new DynamoSummaryStore(db, tableName).rebuild(owner.userId);
    accounts.push({ ...owner, touchId: articles.at(-1)!.id });
  }
  const writtenMs = performance.now() - seedStart;
  progress('scale: the index backfill over every article (it must find nothing to fix)…');
  const backfill = await backfillArticleIndexes(db, tableName);
  if (backfill.fixed || backfill.skipped)
    throw new Error(`the seeded items' index attributes differ from the store's: ${JSON.stringify(backfill)}`);
  const seedMs = performance.now() - seedStart;
  row(
    `scale: seeding ${owners.map((o) => o.size.toLocaleString('en-US')).join(' + ')} articles and the summaries`,
    `${(writtenMs / 1000).toFixed(1)} s (+ index backfill check: ${((seedMs - writtenMs) / 1000).toFixed(1)} s)`,
    // Two cases (personal and team), each within the budget.
    `≤ ${(2 * SEED_BUDGET_MS) / 1000} s`,
    seedMs <= 2 * SEED_BUDGET_MS,
  );

  // The size of each account's dashboard summary: what GET /api/dashboard reads besides the open articles.
  const summarySize = new Map<string, string>();
  for (const account of accounts) {
    const shards = await queryAll<Record<string, unknown>>(db, {
      TableName: tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': `USER#${account.userId}`, ':prefix': 'SUMMARY#' },
    });
    const attributes = shards.reduce((n, item) => n + Object.keys(item).length, 0);
    const named = (prefix: string) =>
      shards.reduce((n, item) => n + Object.keys(item).filter((k) => k.startsWith(prefix)).length, 0);
    const weeks = named('w:');
    const intervals = named('b:');
    const bytes = shards.reduce((n, item) => n + Buffer.byteLength(JSON.stringify(item)), 0);
    summarySize.set(
      labelOf(account),
      `${shards.length} items, ${attributes} attributes (${weeks} per-week and ${intervals} per-interval counts), ~${(bytes / 1000).toFixed(1)} kB`,
    );
  }

  // A change to the owner's articles as any edit makes (not one the dashboard counts): the list version
  // moves, so every list answer kept by the process (http/list-cache.ts) or the browser is stale.
  const touch = (account: Account) =>
    store.update(account.userId, account.touchId, { updatedAt: new Date().toISOString() });

  const headers = (account: Account, etag?: string) => ({
    cookie: account.cookie,
    'accept-encoding': 'gzip, deflate, br, zstd',
    ...(account.workspace ? { 'x-workspace': account.workspace } : {}),
    ...(etag ? { 'if-none-match': etag } : {}),
  });
  const sample = async (account: Account, path: string, etag?: string): Promise<Sample> => {
    recorder.reads.length = 0;
    const t0 = performance.now();
    const res = await fetch(`${api}${path}`, { headers: headers(account, etag) });
    const body = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200 && res.status !== 304) throw new Error(`GET ${path} answered ${res.status}: ${body}`);
    const unreported = recorder.reads.filter((r) => r.unreported);
    if (unreported.length)
      throw new Error(`DynamoDB reported no consumed capacity for ${unreported.map((r) => r.command).join(', ')}`);
    const sum = (reads: CommandRead[]) => reads.reduce((n, r) => n + r.readUnits, 0);
    return {
      ms,
      readUnits: sum(recorder.reads),
      sessionUnits: sum(recorder.reads.filter((r) => r.target === 'PROFILE')),
      accessUnits: sum(recorder.reads.filter((r) => r.target === 'PROFILE+MEMBER')),
      status: res.status,
      etag: res.headers.get('etag'),
      body,
    };
  };

  // What each account's answers hold, checked once: the same open articles, the whole history counted.
  for (const account of accounts) {
    await touch(account);
    const open = JSON.parse((await sample(account, '/api/articles/unpublished')).body).articles.length;
    const dashboard = JSON.parse((await sample(account, '/api/dashboard')).body);
    const page = JSON.parse((await sample(account, '/api/articles/published')).body);
    if (open !== SCALE_OPEN_ARTICLES || page.articles.length === 0 || !page.nextCursor)
      throw new Error(`${labelOf(account)}: ${open} open articles, a first page of ${page.articles.length}`);
    if (dashboard.total !== account.size)
      throw new Error(`${labelOf(account)}: the dashboard counts ${dashboard.total} articles`);
  }

  // The breakdown of one cold call per account: which reads it made and what each cost.
  const breakdown = new Map<string, string>();

  // Interleaved: each round makes every call for both accounts, so the machine's other work falls on all alike.
  progress(`scale: ${WARM_UP} warm-up and ${CALLS} measured rounds, each call right after a change…`);
  const samples = new Map<string, Sample[]>();
  for (let round = 0; round < WARM_UP + CALLS; round++) {
    for (const call of CALLS_MEASURED) {
      for (const account of accounts) {
        await touch(account);
        const s = await sample(account, call.path);
        if (s.status !== 200) throw new Error(`${call.name} answered ${s.status} right after a change`);
        if (round === WARM_UP)
          breakdown.set(
            `${call.name} @${labelOf(account)}`,
            recorder.reads.map((r) => `${r.command.replace('Command', '')} ${r.target} ${r.readUnits}`).join(', '),
          );
        if (round < WARM_UP) continue;
        const key = `${call.name}@${labelOf(account)}`;
        samples.set(key, [...(samples.get(key) ?? []), s]);
      }
    }
  }

  // The Schedule page's poll while nothing changed: If-None-Match with the answer's ETag.
  const polls = new Map<string, Sample[]>();
  for (const account of accounts) {
    await touch(account);
    const fresh = await sample(account, '/api/articles/unpublished');
    if (!fresh.etag) throw new Error('GET /api/articles/unpublished sent no ETag');
    for (let i = 0; i < WARM_UP + CALLS; i++) {
      const s = await sample(account, '/api/articles/unpublished', fresh.etag);
      if (s.status !== 304) throw new Error(`the poll with the current ETag answered ${s.status}`);
      if (i >= WARM_UP) polls.set(labelOf(account), [...(polls.get(labelOf(account)) ?? []), s]);
    }
  }

  // The side-by-side tables (personal, then team), and the budgets as rows of the bench's table.
  const [small, big] = SIZES;
  const fixed = (v: number, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
  const lines: string[][] = [['call', `p50@${small}`, `p50@${big}`, 'ratio', `RCU@${small}`, `RCU@${big}`, 'ratio']];
  for (const kind of ['personal', 'team'] as const) {
    const label = (size: number) => labelOf({ kind, size });
    const of = (name: string, size: number) => samples.get(`${name}@${label(size)}`) ?? [];
    const team = kind === 'team' ? ` (team workspace, ${TEAM_MEMBERS} members)` : '';
    if (kind === 'team')
      lines.push([`Team workspace of ${TEAM_MEMBERS} members, read by a writer:`, '', '', '', '', '', '']);
    for (const call of CALLS_MEASURED) {
      const p50 = (size: number) =>
        percentile(
          of(call.name, size).map((s) => s.ms),
          50,
        );
      const units = (size: number) =>
        percentile(
          of(call.name, size).map((s) => s.readUnits),
          50,
        );
      const timeRatio = p50(big) / p50(small);
      const unitRatio = units(big) / units(small);
      lines.push([
        call.name,
        `${fixed(p50(small))} ms`,
        `${fixed(p50(big))} ms`,
        `${fixed(timeRatio, 2)}×`,
        fixed(units(small)),
        fixed(units(big)),
        `${fixed(unitRatio, 2)}×`,
      ]);
      row(
        `scale: ${call.name}${team} p50 @${big} / @${small}`,
        `${fixed(timeRatio, 2)}×`,
        `≤ ${BUDGET_RATIO}×`,
        timeRatio <= BUDGET_RATIO,
      );
      row(
        `scale: ${call.name}${team} read units @${big} / @${small}`,
        `${fixed(unitRatio, 2)}× (${fixed(units(big))} / ${fixed(units(small))})`,
        `≤ ${BUDGET_RATIO}×`,
        unitRatio <= BUDGET_RATIO,
      );
    }
    const poll = (size: number) => polls.get(label(size)) ?? [];
    const pollP50 = (size: number) =>
      percentile(
        poll(size).map((s) => s.ms),
        50,
      );
    const pollUnits = (size: number) => Math.max(...poll(size).map((s) => s.readUnits));
    // A team's poll also reads the workspace and the member (the middleware, on every call: a removal or a
    // lower role applies at once); nothing else.
    const beyond = Math.max(
      ...SIZES.flatMap((size) => poll(size).map((s) => s.readUnits - s.sessionUnits - s.accessUnits)),
    );
    lines.push([
      'GET /api/articles/unpublished, If-None-Match (304)',
      `${fixed(pollP50(small))} ms`,
      `${fixed(pollP50(big))} ms`,
      `${fixed(pollP50(big) / pollP50(small), 2)}×`,
      fixed(pollUnits(small)),
      fixed(pollUnits(big)),
      '',
    ]);
    row(
      `scale: 304 poll${team}, read units besides the session user${team ? ' and the membership' : ''}`,
      `${fixed(beyond)} (in all ${fixed(pollUnits(small))} / ${fixed(pollUnits(big))})`,
      '0',
      beyond === 0,
    );
  }

  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)));
  const format = (l: string[]) =>
    l
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  console.log('');
  console.log(
    `Scale: ${SCALE_OPEN_ARTICLES} open articles in every case, the rest published; p50 of ${CALLS} calls each,`,
  );
  console.log(
    'right after a change; RCU: read capacity units DynamoDB reported for the call (median), the session included.',
  );
  console.log(format(lines[0]!));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines.slice(1)) console.log(format(l));
  console.log('');
  console.log('Reads of one call (command, index or key, read units):');
  for (const [what, reads] of breakdown) console.log(`  ${what}: ${reads}`);
  console.log('Dashboard summary (SUMMARY#0–3):');
  for (const [label, text] of summarySize) console.log(`  @${label}: ${text}`);
  console.log('');
}
