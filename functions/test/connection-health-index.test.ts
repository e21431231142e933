/**
 * The slots and expiries by time (adapters/dynamo/due-slots.ts, time-keys.ts) over DynamoDB Local: the article store
 * writes a version's slot item in the schedule's own transaction (and moves or drops it with the schedule), the
 * settings store an expiry's with the setting, and the check before each slot (domain/connection-health.ts) reads
 * only the slots and expiries of its windows: no account without one is read, no Scan, no list of accounts.
 */
import { randomBytes } from 'node:crypto';
import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { DynamoArticleStore } from '../src/adapters/dynamo/article-store.js';
import { createDocumentClient } from '../src/adapters/dynamo/client.js';
import { dueSlotsBetween } from '../src/adapters/dynamo/due-slots.js';
import { DynamoSettingStore } from '../src/adapters/dynamo/setting-store.js';
import { connectionsExpiringBetween } from '../src/adapters/dynamo/time-keys.js';
import { ConnectionHealthService } from '../src/domain/connection-health.js';
import type { MailMessage } from '../src/domain/integrations.js';
import { ensureTable } from '../src/local/dynamo.js';
import { channelIds, connectionExpiryKey, connectionExpiryToldKey, type ChannelId } from '../src/channels/ids.js';
import { PUBLIC_SETTING_KEYS, SettingService } from '../src/domain/settings.js';
import { MemorySecretStore } from './helpers/memory-settings.js';
import { articleRecord } from './helpers/article-record.js';

const db = createDocumentClient({ region: 'us-east-1', dynamoEndpoint: inject('dynamoEndpoint') });
afterAll(() => db.destroy());

const NOW = new Date('2031-06-10T12:00:00.000Z');
const at = (hours: number) => new Date(NOW.getTime() + hours * 3600_000).toISOString();

/** The document client, keeping each command's name and input as sent. */
function counting(): { db: DynamoDBDocumentClient; sent: { name: string; input: string }[] } {
  const sent: { name: string; input: string }[] = [];
  const spy = {
    send: (command: { constructor: { name: string }; input: unknown }) => {
      sent.push({ name: command.constructor.name, input: JSON.stringify(command.input) });
      return db.send(command as never);
    },
  } as unknown as DynamoDBDocumentClient;
  return { db: spy, sent };
}

const partition = async (table: string, pk: string) =>
  (
    await db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

describe('the connections’ expiries by time', () => {
  /** A connection's expiry as a channel saves it: at its channel's expiry setting (channels/ids.ts). */
  const saveExpiry = (settings: DynamoSettingStore, userId: string, channel: ChannelId, value: string) =>
    settings.put(userId, {
      key: connectionExpiryKey(channel),
      description: 'The connection expiry',
      hasValue: true,
      createdAt: NOW.toISOString(),
      updatedAt: NOW.toISOString(),
      storedIn: 'table',
      value,
    });

  it('any channel’s connection expiry is indexed, and the sweep tells it a week ahead under that channel’s name', async () => {
    const table = `exp-${randomBytes(4).toString('hex')}`;
    await ensureTable(inject('dynamoEndpoint'), table);
    const settings = new DynamoSettingStore(db, table);
    // A channel other than the one that had an expiry so far: its provider gives its connection a lifetime too.
    await saveExpiry(settings, 'u1', 'ghost', at(3 * 24));
    await saveExpiry(settings, 'u2', 'linkedin', at(4 * 24));
    await saveExpiry(settings, 'u3', 'ghost', at(30 * 24));
    expect(await connectionsExpiringBetween(db, table, at(0), at(7 * 24))).toEqual([
      { ownerId: 'u1', channel: 'ghost' },
      { ownerId: 'u2', channel: 'linkedin' },
    ]);

    const mail: MailMessage[] = [];
    const told = new Map<string, string>();
    const service = new ConnectionHealthService({
      dueSlots: async () => [],
      expiring: (from, to) => connectionsExpiringBetween(db, table, from, to),
      articles: new DynamoArticleStore(db, table),
      probe: {
        channelsOf: async () => [],
        check: async () => ({ problems: [] }),
        // What each channel says of its connection (PublishChannel.connectionExpiry).
        expiry: async (ownerId, channel) =>
          ownerId === 'u1' && channel === 'ghost'
            ? { label: 'Ghost', expiresAt: at(3 * 24) }
            : ownerId === 'u2' && channel === 'linkedin'
              ? { label: 'LinkedIn', expiresAt: at(4 * 24) }
              : undefined,
      },
      imagePresent: async () => true,
      activeOwner: async () => ({ email: 'owner@example.com', timezone: 'UTC' }),
      notifier: async () => ({
        address: undefined,
        mailer: { kind: 'outbox', send: async (m) => (mail.push(m), { id: String(mail.length) }) },
      }),
      expiryTold: {
        get: async (ownerId, channel) => told.get(`${ownerId}#${channel}`),
        set: async (ownerId, channel, expiresAt) => void told.set(`${ownerId}#${channel}`, expiresAt),
      },
      publicUrl: () => 'https://app.example.com',
      now: () => NOW,
    });
    expect(await service.sweep()).toMatchObject({ expiring: 2 });
    expect(mail.map((m) => m.subject)).toEqual([
      'Your Ghost connection expires soon',
      'Your LinkedIn connection expires soon',
    ]);
    expect(mail[0]!.text).toContain('The Ghost connection expires on');
    expect(await service.sweep()).toMatchObject({ expiring: 0 });
  });

  it('every channel’s expiry and the expiry told, saved through the settings, are kept in the table and indexed', async () => {
    const table = `exp-${randomBytes(4).toString('hex')}`;
    await ensureTable(inject('dynamoEndpoint'), table);
    const settings = new SettingService(new DynamoSettingStore(db, table), new MemorySecretStore());
    for (const [i, id] of channelIds.entries()) {
      await settings.put(`owner-${id}`, connectionExpiryKey(id), at(24 * (i + 1)));
      await settings.put(`owner-${id}`, connectionExpiryToldKey(id), at(24 * (i + 1)));
    }
    expect(await connectionsExpiringBetween(db, table, at(0), at(24 * channelIds.length + 1))).toEqual(
      channelIds.map((id) => ({ ownerId: `owner-${id}`, channel: id })),
    );
    // Times, not secrets: shown in full where the API lists a setting unmasked.
    for (const id of channelIds) {
      expect(PUBLIC_SETTING_KEYS.has(connectionExpiryKey(id))).toBe(true);
      expect(PUBLIC_SETTING_KEYS.has(connectionExpiryToldKey(id))).toBe(true);
    }
  });
});

describe('the slots by time', () => {
  it('the store keeps a slot item per version scheduled and not published, moved and dropped with the schedule', async () => {
    const table = `due-${randomBytes(4).toString('hex')}`;
    await ensureTable(inject('dynamoEndpoint'), table);
    const store = new DynamoArticleStore(db, table);
    await store.put(articleRecord({ id: 'a1', userId: 'u1', scheduled: { blog: at(5), linkedin: at(30) } }));
    expect(
      (await dueSlotsBetween(db, table, at(0), at(48))).map((s) => [s.ownerId, s.articleId, s.version, s.at]),
    ).toEqual([
      ['u1', 'a1', 'blog', at(5)],
      ['u1', 'a1', 'linkedin', at(30)],
    ]);
    // Moved, published, and a channel's own version's slot (`scheduled.<version id>`).
    await store.update('u1', 'a1', { 'scheduled.blog': at(7) });
    await store.update('u1', 'a1', {
      'linkedin.publishedToLinkedIn': true,
      'linkedin.lastPublished': at(-1),
    });
    await store.update('u1', 'a1', { 'scheduled.bluesky': at(9) });
    expect((await dueSlotsBetween(db, table, at(0), at(48))).map((s) => [s.version, s.at])).toEqual([
      ['blog', at(7)],
      ['bluesky', at(9)],
    ]);
    expect(await partition(table, `DUE#${at(30).slice(0, 10)}`)).toEqual([]);
    // Its channel's post publishes the channel's own version: its slot leaves the index (slotsToPublish).
    await store.update('u1', 'a1', {
      posts: { bluesky: { id: 'at://did:plc:x/app.bsky.feed.post/1', url: null, publishedAt: at(-1) } },
    });
    expect((await dueSlotsBetween(db, table, at(0), at(48))).map((s) => [s.version, s.at])).toEqual([['blog', at(7)]]);
  });

  it('a sweep reads the slots and expiries of its windows and the accounts that have one, no other account', async () => {
    const table = `due-${randomBytes(4).toString('hex')}`;
    await ensureTable(inject('dynamoEndpoint'), table);
    const articles = new DynamoArticleStore(db, table);
    const settings = new DynamoSettingStore(db, table);
    // due: a slot in 3 hours. later: a slot in 3 days and a LinkedIn connection expiring in 3 weeks.
    // expiring: no slot, a LinkedIn connection expiring in 5 days. idle: an article with no schedule.
    await articles.put(articleRecord({ id: 'd1', userId: 'due', scheduled: { blog: at(3), linkedin: null } }));
    await articles.put(articleRecord({ id: 'l1', userId: 'later', scheduled: { blog: null, linkedin: at(72) } }));
    await articles.put(articleRecord({ id: 'i1', userId: 'idle' }));
    const expiry = (userId: string, value: string) =>
      settings.put(userId, {
        key: 'linkedin_token_expiry',
        description: 'LinkedIn token expiry',
        hasValue: true,
        createdAt: NOW.toISOString(),
        updatedAt: NOW.toISOString(),
        storedIn: 'table',
        value,
      });
    await expiry('later', at(21 * 24));
    await expiry('expiring', at(5 * 24));

    const reads = counting();
    const checked: string[] = [];
    const expiryAsked: string[] = [];
    const mail: MailMessage[] = [];
    const service = new ConnectionHealthService({
      dueSlots: (from, to) => dueSlotsBetween(reads.db, table, from, to),
      expiring: (from, to) => connectionsExpiringBetween(reads.db, table, from, to),
      articles: new DynamoArticleStore(reads.db, table),
      probe: {
        channelsOf: async (ownerId, version) => {
          checked.push(`${ownerId}:${version}`);
          return [{ id: 'wordpress', label: 'WordPress', platform: 'blog', checkArticle: () => undefined }];
        },
        check: async () => ({ problems: [] }),
        expiry: async (ownerId, channel) => {
          expiryAsked.push(`${ownerId}:${channel}`);
          return ownerId === 'expiring' ? { label: 'LinkedIn', expiresAt: at(5 * 24) } : undefined;
        },
      },
      imagePresent: async () => true,
      activeOwner: async () => ({ email: 'owner@example.com', timezone: 'UTC' }),
      notifier: async () => ({
        address: undefined,
        mailer: { kind: 'outbox', send: async (m) => (mail.push(m), { id: String(mail.length) }) },
      }),
      expiryTold: { get: async () => undefined, set: async () => undefined },
      publicUrl: () => 'https://app.example.com',
      now: () => NOW,
    });

    expect(await service.sweep()).toEqual({ checked: 1, withProblems: 0, expiring: 1 });
    expect(checked).toEqual(['due:blog']);
    expect(expiryAsked).toEqual(['expiring:linkedin']);
    expect(mail.map((m) => m.subject)).toEqual(['Your LinkedIn connection expires soon']);
    // What went to the table: the day partitions of the windows, the due account's article and the expiring account's
    // notice (its event), nothing of the other accounts.
    expect(reads.sent.map((c) => c.name).filter((name) => name === 'ScanCommand')).toEqual([]);
    const touched = reads.sent.map((c) => c.input).join('\n');
    for (const other of ['later', 'idle']) expect(touched).not.toContain(`USER#${other}`);
    expect(touched).not.toContain('USERS');
    expect(touched).toContain('USER#due');
  });
});
