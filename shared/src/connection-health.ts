/**
 * Connection health before a slot (docs/product.md, Connection health): a sweep checks every scheduled version 24
 * hours and 1 hour before its slot (functions/src/domain/connection-health.ts) and notes what it found on the article;
 * the Schedule card shows the problems, Settings the connection's, and the owner gets one e-mail per slot and window.
 */
import type { VersionId } from './articles.js';

/** The two checks before a slot: 24 hours ahead and 1 hour ahead. */
export const HEALTH_WINDOWS = ['24h', '1h'] as const;
export type HealthWindow = (typeof HEALTH_WINDOWS)[number];

/** How often the sweep runs (the stack's rate schedule, the local server's interval): each window is met within this long. */
export const HEALTH_SWEEP_MINUTES = 15;

/** The sweep's input to the worker (not a job of one article): what the rate schedule sends. */
export const HEALTH_SWEEP_INPUT = { type: 'connection-health' } as const;

/** How far ahead of the slot each window opens. */
export const HEALTH_WINDOW_MS: Record<HealthWindow, number> = { '24h': 24 * 3600_000, '1h': 3600_000 };

/** A channel's connection expiring this close (its provider's token lifetime) is flagged whether or not a slot needs it. */
export const CONNECTION_EXPIRY_WARNING_MS = 7 * 24 * 3600_000;

/** Where a problem is put right: the channel's panel in Settings, or the article's editor. */
export type HealthFix = 'settings' | 'editor';

/** One thing that would stop a slot's post. */
export interface HealthProblem {
  /** The channel it concerns (functions/src/channels/registry.ts id). */
  channel: string;
  /** A stable code (e.g. wordpress_auth_failed, linkedin_expires_before_slot, offline_draft_note). */
  code: string;
  /** What to fix, for people. */
  message: string;
  fix: HealthFix;
}

/** What the last check of a version's slot found (Article.health). */
export interface SlotHealth {
  /** The slot checked. */
  scheduledFor: string;
  /** The windows checked for it so far. */
  windows: HealthWindow[];
  /** What the newest check found (empty: all well). */
  problems: HealthProblem[];
  checkedAt: string;
}

/**
 * Per version (`blog`, `linkedin`, a channel's own: VersionId), the health of its current slot (absent: not checked
 * yet, or nothing wrong).
 */
export type ArticleHealth = Partial<Record<VersionId, SlotHealth>>;

export const ConnectionHealthMessages = {
  notConnected: (label: string) => `${label} is not connected. Connect it in Settings.`,
  /** `why`: the channel's own check's sentence (it names the channel). */
  refused: (label: string, why: string) => `${why.trim()} Fix the ${label} connection in Settings.`,
  /** `label`: the channel's (a connection whose provider gives it a lifetime). */
  expiresBeforeSlot: (label: string, expiresAt: string) =>
    `The ${label} connection expires (${expiresAt}) before this post's time. Reconnect ${label} in Settings.`,
  expired: (label: string) => `The ${label} connection has expired. Reconnect ${label} in Settings.`,
  expiringSoon: (label: string, expiresAt: string) =>
    `The ${label} connection expires on ${expiresAt}. Reconnect ${label} in Settings to keep posting.`,
  /** `version`: how the text is named ("blog", "LinkedIn", a channel's label). */
  offlineDraftNote: (version: string) =>
    `The ${version} text still has the offline-draft note. Remove it in the editor.`,
  imageMissing: 'The article expects an image but it has none. Add one in the Image step.',
  textRefused: (why: string) => `${why}`,
  /**
   * A problem's sentence as the Settings page shows it, above the channel's panel: the page itself says what to do
   * there ("Connect it below."), not where to go. Also right for notes written before (the same sentences).
   */
  onSettingsPage: (message: string) => message.replace(/ in Settings\b/g, ' below'),
} as const;
