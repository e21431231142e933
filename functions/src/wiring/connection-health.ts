import { ConnectionHealthMessages, type VersionId } from '@app/shared';
import { createObjectStore } from '../adapters/aws/s3-object-store.js';
import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { dueSlotsBetween } from '../adapters/dynamo/due-slots.js';
import { connectionsExpiringBetween } from '../adapters/dynamo/time-keys.js';
import type { PublishChannel } from '../channels/channel.js';
import { connectionExpiryToldKey, type ChannelId } from '../channels/ids.js';
import { channelIds, loadChannel } from '../channels/registry.js';
import { storedWordPress } from '../channels/wordpress/service.js';
import {
  ConnectionHealthService,
  type ConnectionProbe,
  type ConnectionState,
  type SlotChannel,
} from '../domain/connection-health.js';
import { DomainError } from '../domain/errors.js';
import { newestImageFile } from '../domain/images.js';
import { logger } from '../logger.js';
import { deps } from './deps.js';
import { emailService } from './email-service.js';
import { lazy } from './lazy.js';
import { wordPressService } from './wordpress-service.js';
import { activeWorkspaceOwner } from './workspace-access.js';
import { settingService } from './settings.js';

/**
 * A channel's stored connection refused (not connected or expired: its own 400, PublishChannel.connection) is the
 * owner's to fix and answers `refused`; anything else (a failed read of the settings) is no finding about the
 * connection: it goes to the sweep's onError, and the slot's window stays unnoted, so the next sweep checks it again.
 */
function refusedOr<T>(err: unknown, refused: T): T {
  if (err instanceof DomainError && err.kind === 'invalid') return refused;
  throw err;
}

/**
 * The channels' checks for the sweep (domain/connection-health.ts): WordPress's live check of the saved credentials
 * (the site and the application password), the other channels' own settings test (channels/channel.ts
 * ChannelSettings.test) or, without one, their stored connection; and for a channel whose provider gives its connection
 * a lifetime, its expiry (PublishChannel.connectionExpiry).
 */
function probe(): ConnectionProbe {
  const { config } = deps();
  const settings = settingService();
  const env = { config, settings };
  const notConnected = (id: string, label: string) => ({
    problems: [
      {
        channel: id,
        code: `${id}_not_connected`,
        message: ConnectionHealthMessages.notConnected(label),
        fix: 'settings' as const,
      },
    ],
  });
  return {
    async channelsOf(ownerId: string, version: VersionId, options: { bundle?: boolean } = {}): Promise<SlotChannel[]> {
      const channels = await Promise.all(channelIds.map((id) => loadChannel(id, env)));
      // A channel's version: its own (`version`) or the one whose text it publishes.
      const ofVersion = channels.filter((c) => (c.version ?? c.platform) === version);
      const owners = ofVersion.filter((c) => c.ownsSchedule);
      // A version no channel owns the schedule of (a channel's own) is its channels' alone, connected or not.
      const own = owners.length ? owners : ofVersion;
      // The version's other channels publish with it only while they are connected.
      const others = await Promise.all(
        ofVersion
          .filter((c) => !own.includes(c) && c.settings)
          .map(async (c) => ((await c.settings!.status(ownerId)).connected ? c : undefined)),
      );
      // A blog-first bundle's social posts go out with the blog post: every other connected channel, as
      // PublishingService.socialChannels picks them (domain/publishing.ts).
      const social =
        options.bundle && version === 'blog'
          ? await Promise.all(
              channels
                .filter((c) => (c.version ?? c.platform) !== 'blog')
                .map((c) =>
                  c.connection(ownerId).then(
                    () => c,
                    (err: unknown) => refusedOr(err, undefined),
                  ),
                ),
            )
          : [];
      return [...own, ...others, ...social]
        .filter((c) => c !== undefined)
        .map((c) => ({
          id: c.id,
          label: c.label,
          platform: c.platform,
          checkArticle: (article) => c.checkArticle(article),
        }));
    },
    async check(ownerId: string, id: string): Promise<ConnectionState> {
      const channel = await loadChannel(id, env);
      const expiresAt = await channel.connectionExpiry?.(ownerId);
      if (expiresAt && Date.parse(expiresAt) <= Date.now())
        return {
          problems: [
            {
              channel: id,
              code: `${id}_token_invalid`,
              message: ConnectionHealthMessages.expired(channel.label),
              fix: 'settings',
            },
          ],
        };
      const state = await connectionState(ownerId, channel);
      return !state.problems.length && expiresAt ? { ...state, expiresAt } : state;
    },
    async expiry(ownerId: string, id: string) {
      const channel = await loadChannel(id, env);
      const expiresAt = await channel.connectionExpiry?.(ownerId);
      return expiresAt ? { label: channel.label, expiresAt } : undefined;
    },
  };

  /** What the channel's connection check finds, its expiry aside. */
  async function connectionState(ownerId: string, channel: PublishChannel): Promise<ConnectionState> {
    const { id } = channel;
    if (id === 'wordpress') {
      const site = await storedWordPress(settings, ownerId);
      if (!site) return notConnected(id, 'WordPress');
      const check = await wordPressService().test(ownerId, { ...site, appPassword: '' });
      return check.ok
        ? { problems: [] }
        : {
            problems: [
              {
                channel: id,
                code: `wordpress_${check.code}`,
                message: ConnectionHealthMessages.refused('WordPress', check.message),
                fix: 'settings',
              },
            ],
          };
    }
    // A channel with documented routes of its own: its stored connection, as publishing reads it.
    if (!channel.settings)
      return channel.connection(ownerId).then(
        () => ({ problems: [] }),
        (err: unknown) => refusedOr(err, notConnected(id, channel.label)),
      );
    // Its own test refuses to run without saved credentials: a channel not connected is told as such.
    if (!(await channel.settings.status(ownerId)).connected) return notConnected(id, channel.label);
    const check = await channel.settings.test(ownerId);
    return check.ok
      ? { problems: [] }
      : {
          problems: [
            {
              channel: id,
              code: `${id}_${check.code}`,
              message: ConnectionHealthMessages.refused(channel.label, check.message),
              fix: 'settings',
            },
          ],
        };
  }
}

/** The check before each slot (the worker's sweep, the local server's interval), built on first use. */
export const connectionHealth = lazy((): ConnectionHealthService => {
  const { config, db } = deps();
  const settings = settingService();
  const articles = new DynamoArticleStore(db, config.tableName);
  const objects = createObjectStore(config);
  return new ConnectionHealthService({
    expiring: (from, to) => connectionsExpiringBetween(db, config.tableName, from, to),
    dueSlots: (from, to) => dueSlotsBetween(db, config.tableName, from, to),
    articles,
    probe: probe(),
    imagePresent: async (article, platform) => Boolean(await newestImageFile({ articles, objects }, article, platform)),
    activeOwner: activeWorkspaceOwner,
    notifier: (ownerId) => emailService().notifier(ownerId),
    expiryTold: {
      get: (ownerId, channel) => settings.value(ownerId, connectionExpiryToldKey(channel as ChannelId)),
      set: (ownerId, channel, expiresAt) =>
        settings.put(
          ownerId,
          connectionExpiryToldKey(channel as ChannelId),
          expiresAt,
          `The ${channel} connection expiry last told of`,
        ),
    },
    publicUrl: () => config.publicUrl,
    onError: (ownerId, err) =>
      logger.error('Connection health sweep failed for an owner', { ownerId, error: err as Error }),
  });
});
