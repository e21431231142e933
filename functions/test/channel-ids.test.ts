/**
 * The channel facts some functions use without loading a channel (src/channels/ids.ts: the Sheets import's channel
 * names, the versions an article's named channels go with when it is scheduled) are each channel's own.
 */
import { describe, expect, it } from 'vitest';
import { channelIds, channelNames, ownVersionIds, versionChannelIds } from '../src/channels/ids.js';
import { loadChannel } from '../src/channels/registry.js';
import { loadConfig } from '../src/config.js';
import type { SettingService } from '../src/domain/settings.js';

const env = { config: loadConfig(process.env), settings: {} as SettingService };

describe('channel facts without loading the channels', () => {
  it.each(channelIds)('%s: the name is its own, and it goes with the version it publishes with', async (id) => {
    const channel = await loadChannel(id, env);
    expect(channelNames.find((c) => c.id === id)?.label).toBe(channel.label);
    // The version it publishes: its own (text, schedule and approval of its own), else the one whose text it takes.
    expect(versionChannelIds(channel.version ?? channel.platform)).toContain(id);
  });

  it("each channel goes with one version, in the registry order; a channel's own version with it alone", () => {
    const blog = versionChannelIds('blog');
    const linkedin = versionChannelIds('linkedin');
    const own = ownVersionIds.flatMap((version) => versionChannelIds(version));
    expect(own).toEqual([...ownVersionIds]);
    expect([...blog, ...linkedin, ...own].sort()).toEqual([...channelIds].sort());
    expect(blog.filter((id) => linkedin.includes(id))).toEqual([]);
  });
});
