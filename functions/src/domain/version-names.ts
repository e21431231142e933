import { isPlatform, type Platform, type VersionId } from '@app/shared';
import { ownVersionLabel } from '../channels/ids.js';

/** The blog's and LinkedIn's names in the e-mails, as they always were. */
export const PLATFORM_NAMES: Record<Platform, string> = { blog: 'WordPress (blog)', linkedin: 'LinkedIn' };

/** A version's name in the e-mails: the blog's and LinkedIn's as ever, a channel's own by its channel (registry.ts). */
export const versionName = (version: VersionId): string =>
  isPlatform(version) ? PLATFORM_NAMES[version] : ownVersionLabel(version);

/**
 * The picture a version goes out with: the blog's or LinkedIn's own size; a channel's own version posts the article's
 * image as the blog has it (channels/channel.ts, `platform`).
 */
export const imageVersion = (version: VersionId): Platform => (isPlatform(version) ? version : 'blog');
