import { loadChannel } from '../channels/registry.js';
import type { ChannelSettings, PublishChannel } from '../channels/channel.js';
import { notFound } from '../domain/errors.js';
import { deps } from './deps.js';
import { settingService } from './settings.js';

/**
 * A channel of the registry reached through the generic routes (`channels.*`): only one without documented routes of
 * its own (WordPress and LinkedIn have theirs); any other id answers 404. Its module loads on this first use.
 */
export async function genericChannel(id: string): Promise<PublishChannel & { settings: ChannelSettings }> {
  const { config } = deps();
  const settings = settingService();
  const channel = await loadChannel(id, { config, settings });
  if (!channel.settings) throw notFound('Channel not found', 'channel_not_found');
  return channel as PublishChannel & { settings: ChannelSettings };
}
