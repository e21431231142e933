import { lazy } from 'react';
import type { Platform } from '@app/shared';
import type { RegisteredChannel } from './types';
import { linkedin } from './linkedin';
import { wordpress } from './wordpress';

/**
 * Every publishing channel of the SPA, in the order the pages show them (docs/architecture.md, Channels). The pages
 * and shared components go through this list rather than naming a channel; adding a channel is its folder and one
 * entry here. The settings panel and the preview are chunks of their own, fetched when a page renders them, so a
 * page carries neither (the blog preview brings the Markdown renderer and sanitizer; docs/testing.md, Performance
 * budgets).
 */
export const CHANNEL_REGISTRY: readonly RegisteredChannel[] = [
  {
    ...wordpress,
    loadSettingsPanel: () => import('./wordpress/WordPressPanel').then((m) => m.WordPressPanel),
    Preview: lazy(() => import('./wordpress/WordPressPreview')),
  },
  {
    ...linkedin,
    loadSettingsPanel: () => import('./linkedin/LinkedInPanel').then((m) => m.LinkedInPanel),
    Preview: lazy(() => import('./linkedin/LinkedInPreview')),
  },
];

/** The channel that publishes an article's version (one per version today). */
export function channelFor(version: Platform): RegisteredChannel {
  return CHANNEL_REGISTRY.find((channel) => channel.version === version)!;
}
