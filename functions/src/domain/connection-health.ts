/**
 * Connection health before a slot (docs/product.md, Connection health). A periodic sweep (the worker's
 * `connection-health` job, every HEALTH_SWEEP_MINUTES from a rate schedule in AWS, an interval of the local server)
 * reads each owner's calendar entries of the next 24 hours and checks every scheduled version once when its slot
 * enters the 24-hour window and once when it enters the 1-hour one: the connections of the channels the slot will
 * publish to (the channel's own check, an expiry before the slot), the text, the image and the offline-draft note.
 * What it found is noted on the article, one attribute per version (`<version>Health`: healthAttribute), with the
 * windows done, so a later sweep checks a slot once per window; the note is claimed for its (slot, window) by a
 * conditional write before anything is told, so two sweeps at once e-mail the owner once. Problems are e-mailed to the
 * owner (one e-mail per slot and window) and told as a ConnectionProblem event. A channel's connection expiring within
 * 7 days (one whose provider gives it a lifetime: PublishChannel.connectionExpiry) is told once per expiry, slot or not.
 *
 * Decoupled from the scheduling run (domain/scheduling.ts): it reads the calendar and writes only its own note.
 * Vendor-free: the channels' checks come through ConnectionProbe (functions/src/wiring/connection-health.ts).
 */
import {
  approvalTimeText,
  ConnectionHealthMessages,
  HEALTH_WINDOW_MS,
  isPlatform,
  CONNECTION_EXPIRY_WARNING_MS,
  offlineDraftNoteLines,
  type HealthProblem,
  type HealthWindow,
  type Platform,
  type SlotHealth,
  type VersionId,
  goesTo,
} from '@app/shared';
import { escapeHtml, PLATFORM_NAMES } from './approval-email.js';
import { healthAttribute, slotsToPublish, versionText, type ArticleRecord } from './articles.js';
import { eventPlatform, makeEvent, outboxEntry, type OutboxEntry } from './automation-events.js';
import type { MailSender } from './integrations.js';
import type { ArticleStore } from './ports.js';

export { healthAttribute };

/**
 * The window a slot is due to be checked in at `now`, given its note: the 1-hour one within an hour of the slot,
 * else the 24-hour one within a day; undefined once the slot has passed, before the day, or when that window's
 * check is noted already for this very slot (a moved slot starts again).
 */
export function dueWindow(
  scheduledFor: string,
  now: Date,
  note: SlotHealth | null | undefined,
): HealthWindow | undefined {
  const left = Date.parse(scheduledFor) - now.getTime();
  if (!(left > 0)) return undefined;
  const done = note?.scheduledFor === scheduledFor ? note.windows : [];
  const window: HealthWindow | undefined =
    left <= HEALTH_WINDOW_MS['1h'] ? '1h' : left <= HEALTH_WINDOW_MS['24h'] ? '24h' : undefined;
  return window && !done.includes(window) ? window : undefined;
}

/** A channel the slot publishes to, as the checks need it. */
export interface SlotChannel {
  id: string;
  label: string;
  /** The version whose image it publishes (a channel's own version carries the article's image of this one). */
  platform: Platform;
  /** The channel's text rules (channels/channel.ts checkArticle): throws an error with a message when refused. */
  checkArticle(article: ArticleRecord): void;
}

/** What a channel's connection check found: problems (none: fine) and when the connection expires, if it does. */
export interface ConnectionState {
  problems: HealthProblem[];
  expiresAt?: string;
}

/** The channels' side (port): which channels a version's slot publishes to, and each connection's check. */
export interface ConnectionProbe {
  /**
   * The channels the version's slot publishes to: the one that owns its schedule (every channel of the version when
   * none does, as a channel's own version), and the version's other channels that are connected; with `bundle`
   * (a blog-first bundle's blog slot, Article.bundle) the connected social channels too, which publish with it.
   */
  channelsOf(ownerId: string, version: VersionId, options?: { bundle?: boolean }): Promise<SlotChannel[]>;
  /** The channel's connection as its own test finds it now (its credentials and site). */
  check(ownerId: string, channelId: string): Promise<ConnectionState>;
  /**
   * The channel's connection's expiry, as the channel says (undefined: not connected, or none known), with its label.
   */
  expiry(ownerId: string, channelId: string): Promise<{ label: string; expiresAt: string } | undefined>;
}

const codeOf = (err: unknown): string => {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : 'text_refused';
};

/** How the messages name a version's text: "blog", "LinkedIn", or its channel's label. */
const versionName = (version: VersionId, channels: readonly SlotChannel[]) =>
  version === 'blog' ? 'blog' : version === 'linkedin' ? 'LinkedIn' : (channels[0]?.label ?? version);

/** Where the e-mail says the slot goes out: the version's channel ("WordPress"), or its channels' labels. */
const slotPlace = (version: VersionId, channels: readonly SlotChannel[]) =>
  isPlatform(version) ? PLATFORM_NAMES[version] : channels.map((c) => c.label).join(' and ') || version;

/** What the article itself lacks for the slot of `version` (pure): its text, its note, its image. */
export function articleProblems(
  article: ArticleRecord,
  version: VersionId,
  channels: readonly SlotChannel[],
  imagePresent: boolean,
): HealthProblem[] {
  const problems: HealthProblem[] = [];
  const main = channels[0]?.id ?? (version === 'blog' ? 'wordpress' : version);
  if (offlineDraftNoteLines(versionText(article, version)).length)
    problems.push({
      channel: main,
      code: 'offline_draft_note',
      message: ConnectionHealthMessages.offlineDraftNote(versionName(version, channels)),
      fix: 'editor',
    });
  for (const channel of channels) {
    try {
      channel.checkArticle(article);
    } catch (err) {
      const code = codeOf(err);
      // The note is told once, above, for the version's text.
      if (code === 'offline_draft_note' && problems.some((p) => p.code === code)) continue;
      problems.push({
        channel: channel.id,
        code,
        message: ConnectionHealthMessages.textRefused((err as Error).message),
        fix: 'editor',
      });
    }
  }
  const imageExpected = Boolean(article.image || article.imageDescription.trim());
  if (imageExpected && !imagePresent)
    problems.push({
      channel: main,
      code: 'image_missing',
      message: ConnectionHealthMessages.imageMissing,
      fix: 'editor',
    });
  return problems;
}

/** The connection's problems for a post at `slot`: what its check found, and an expiry before the slot. */
export function connectionProblems(channel: SlotChannel, state: ConnectionState, slot: string): HealthProblem[] {
  const problems = [...state.problems];
  if (!problems.length && state.expiresAt && Date.parse(state.expiresAt) <= Date.parse(slot))
    problems.push({
      channel: channel.id,
      code: `${channel.id}_expires_before_slot`,
      message: ConnectionHealthMessages.expiresBeforeSlot(channel.label, state.expiresAt),
      fix: 'settings',
    });
  return problems;
}

/** What the e-mail needs to say. */
export interface HealthEmailInput {
  title: string;
  /** Where it goes out ("WordPress", or a channel's own version's channel). */
  place: string;
  window: HealthWindow;
  /** The slot in the owner's zone (approvalTimeText). */
  when: string;
  problems: readonly HealthProblem[];
  settingsUrl: string;
  editorUrl: string;
}

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/** The e-mail about a slot's problems: inline-styled HTML and a plain-text part (as the approval e-mail). */
export function healthEmailContent(input: HealthEmailInput): { subject: string; html: string; text: string } {
  const ahead = input.window === '1h' ? 'within the hour' : 'within the next 24 hours';
  const subject = `Needs attention before it goes out: “${input.title}”`;
  const linkOf = (p: HealthProblem) => (p.fix === 'settings' ? input.settingsUrl : input.editorUrl);
  const labelOf = (p: HealthProblem) => (p.fix === 'settings' ? 'Open Settings' : 'Open the editor');
  const intro = `“${input.title}” is scheduled for ${input.place} ${ahead}, ${input.when}. Fix this before then, or it will not go out:`;
  const text = [
    intro,
    '',
    ...input.problems.map((p) => `- ${p.message}\n  ${labelOf(p)}: ${linkOf(p)}`),
    '',
    'This check runs a day and an hour before each scheduled post.',
  ].join('\n');
  const items = input.problems
    .map(
      (p) =>
        `<li style="margin:0 0 12px;font-family:${FONT};font-size:15px;line-height:1.5;color:#1f2937">${escapeHtml(p.message)}<br>` +
        `<a href="${escapeHtml(linkOf(p))}" style="color:#1d4ed8;text-decoration:underline;font-weight:600">${labelOf(p)}</a></li>`,
    )
    .join('');
  const html =
    `<!doctype html><html><body style="margin:0;padding:0;background-color:#f3f4f6">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f4f6"><tr><td align="center" style="padding:24px 12px">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background-color:#ffffff;border:1px solid #e5e7eb;border-radius:8px">` +
    `<tr><td style="padding:24px 24px 8px">` +
    `<h1 style="margin:0 0 10px;font-family:${FONT};font-size:22px;line-height:1.3;font-weight:700;color:#111827;word-break:break-word">Needs attention: “${escapeHtml(input.title)}”</h1>` +
    `<p style="margin:0 0 16px;font-family:${FONT};font-size:15px;line-height:1.5;color:#4b5563">${escapeHtml(intro)}</p>` +
    `<ul style="margin:0 0 8px;padding-left:20px">${items}</ul>` +
    `</td></tr>` +
    `<tr><td style="padding:12px 24px 20px;border-top:1px solid #e5e7eb;font-family:${FONT};font-size:13px;line-height:1.5;color:#6b7280">This check runs a day and an hour before each scheduled post.</td></tr>` +
    `</table></td></tr></table></body></html>`;
  return { subject, html, text };
}

/** The e-mail about a channel's connection expiring soon. */
export function expiryEmailContent(input: { label: string; when: string; settingsUrl: string }) {
  const message = ConnectionHealthMessages.expiringSoon(input.label, input.when);
  const subject = `Your ${input.label} connection expires soon`;
  const text = `${message}\n\nOpen Settings: ${input.settingsUrl}`;
  const html =
    `<!doctype html><html><body style="margin:0;padding:24px 12px;background-color:#f3f4f6">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;margin:0 auto;background-color:#ffffff;border:1px solid #e5e7eb;border-radius:8px"><tr><td style="padding:24px">` +
    `<h1 style="margin:0 0 10px;font-family:${FONT};font-size:22px;line-height:1.3;font-weight:700;color:#111827">${subject}</h1>` +
    `<p style="margin:0 0 16px;font-family:${FONT};font-size:15px;line-height:1.5;color:#4b5563">${escapeHtml(message)}</p>` +
    `<a href="${escapeHtml(input.settingsUrl)}" style="font-family:${FONT};color:#1d4ed8;text-decoration:underline;font-weight:600">Open Settings</a>` +
    `</td></tr></table></body></html>`;
  return { subject, html, text, message };
}

/** A version's slot as the index of slots by time gives it (adapters/dynamo/due-slots.ts). */
export interface DueSlot {
  ownerId: string;
  articleId: string;
  version: VersionId;
  at: string;
}

export interface ConnectionHealthDeps {
  /**
   * The owners' channels whose connection expires in [from, to], from the expiries kept by time
   * (adapters/dynamo/time-keys.ts): the week's notice reads no other account.
   */
  expiring(from: string, to: string): Promise<{ ownerId: string; channel: string }[]>;
  /**
   * Every owner's slots in [from, to], from the index of slots by time: the sweep reads only the articles of the slots
   * in its windows, and no account without one.
   */
  dueSlots(from: string, to: string): Promise<DueSlot[]>;
  articles: Pick<ArticleStore, 'get' | 'update' | 'recordEvents'>;
  probe: ConnectionProbe;
  /** Whether the image file of a version is there (domain/images.ts newestImageFile). */
  imagePresent(article: ArticleRecord, platform: Platform): Promise<boolean>;
  /** Who is told: the owner (a team workspace's longest-standing active owner); undefined: nobody to tell. */
  activeOwner(ownerId: string): Promise<{ email: string; timezone: string } | undefined>;
  /** Where the owner's mail goes (EmailService.notifier). */
  notifier(ownerId: string): Promise<{ address: string | undefined; mailer: MailSender | undefined }>;
  /** The expiry last told of, kept per owner and channel (a non-secret setting), so it is told once. */
  expiryTold: {
    get(ownerId: string, channel: string): Promise<string | undefined>;
    set(ownerId: string, channel: string, expiresAt: string): Promise<void>;
  };
  publicUrl(): string;
  now?: () => Date;
  /** An owner whose sweep failed (logged by the wiring); the others go on. */
  onError?(ownerId: string, err: unknown): void;
}

export interface SweepResult {
  /** Slots checked in this sweep. */
  checked: number;
  /** Of those, the ones with problems (e-mailed and told). */
  withProblems: number;
  /** Connections told of their near expiry. */
  expiring: number;
}

export class ConnectionHealthService {
  private readonly now: () => Date;
  constructor(private readonly deps: ConnectionHealthDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** One sweep: the slots of its windows, then the connections' expiries (idempotent: a slot is checked once per window, an expiry told once). */
  async sweep(): Promise<SweepResult> {
    const result: SweepResult = { checked: 0, withProblems: 0, expiring: 0 };
    const now = this.now();
    const from = now.toISOString();
    const to = new Date(now.getTime() + HEALTH_WINDOW_MS['24h']).toISOString();
    const slotsByOwner = new Map<string, DueSlot[]>();
    for (const slot of await this.deps.dueSlots(from, to))
      slotsByOwner.set(slot.ownerId, [...(slotsByOwner.get(slot.ownerId) ?? []), slot]);
    for (const [ownerId, slots] of slotsByOwner) {
      try {
        await this.sweepSlots(ownerId, slots, now, result);
      } catch (err) {
        this.deps.onError?.(ownerId, err);
      }
    }
    const weekAhead = new Date(now.getTime() + CONNECTION_EXPIRY_WARNING_MS).toISOString();
    for (const { ownerId, channel } of await this.deps.expiring(from, weekAhead)) {
      try {
        if (await this.tellExpiry(ownerId, channel, now)) result.expiring++;
      } catch (err) {
        this.deps.onError?.(ownerId, err);
      }
    }
    return result;
  }

  private async sweepSlots(ownerId: string, slots: readonly DueSlot[], now: Date, result: SweepResult): Promise<void> {
    // One check of each connection per owner and sweep, however many slots use it.
    const states = new Map<string, Promise<ConnectionState>>();
    const stateOf = (id: string) => {
      let found = states.get(id);
      if (!found) states.set(id, (found = this.deps.probe.check(ownerId, id)));
      return found;
    };
    const articles = new Map<string, Promise<ArticleRecord | undefined>>();
    for (const due of slots) {
      let read = articles.get(due.articleId);
      if (!read) articles.set(due.articleId, (read = this.deps.articles.get(ownerId, due.articleId)));
      const article = await read;
      // The article as it is now: a slot moved or published since the index was read is not this one.
      const current = article && slotsToPublish(article).find((s) => s.version === due.version);
      if (!article || !current || Date.parse(current.at) !== Date.parse(due.at)) continue;
      const { version, at: slot } = current;
      const note = article[healthAttribute(version)];
      const window = dueWindow(slot, now, note);
      if (!window) continue;
      const channels = (
        await this.deps.probe.channelsOf(ownerId, version, { bundle: version === 'blog' && article.bundle === true })
      ).filter((c) => goesTo(article, c.id)); // an import that named channels (Article.channels): only those
      const imagePlatform = channels[0]?.platform ?? (isPlatform(version) ? version : 'blog');
      const problems = articleProblems(
        article,
        version,
        channels,
        await this.deps.imagePresent(article, imagePlatform),
      );
      for (const channel of channels) problems.push(...connectionProblems(channel, await stateOf(channel.id), slot));
      if (!(await this.record(ownerId, article, version, channels, { slot, window, note }, problems))) continue;
      result.checked++;
      if (problems.length) result.withProblems++;
    }
  }
  /**
   * Notes the check and tells its problems: false when another sweep claimed this (slot, window) first (the note's
   * write holds only while the window is not noted for the slot), so it is told once however many sweeps meet.
   */
  private async record(
    ownerId: string,
    article: ArticleRecord,
    version: VersionId,
    channels: readonly SlotChannel[],
    due: { slot: string; window: HealthWindow; note: SlotHealth | null | undefined },
    problems: HealthProblem[],
  ): Promise<boolean> {
    const { slot, window, note } = due;
    const now = this.now();
    const windows = note?.scheduledFor === slot ? [...note.windows, window] : [window];
    const health: SlotHealth = { scheduledFor: slot, windows, problems, checkedAt: now.toISOString() };
    const events: OutboxEntry[] = problems.length
      ? [
          outboxEntry(
            makeEvent(
              'ConnectionProblem',
              {
                userId: ownerId,
                articleId: article.id,
                actorId: null,
                title: article.title,
                platform: eventPlatform(version),
                scheduledFor: slot,
                window,
                problems: problems.map(({ channel, code, message }) => ({ channel, code, message })),
              },
              now,
            ),
          ),
        ]
      : [];
    // The note (with its windows) is written before the e-mail: a sweep cut off after it sends none rather than two;
    // and only while the window is not noted for this slot: the sweep that claims it is the one that tells.
    const written = await this.deps.articles.update(
      ownerId,
      article.id,
      { [healthAttribute(version)]: health },
      { onlyIfHealthDue: { version, scheduledFor: slot, window }, ...(events.length ? { events } : {}) },
    );
    if (!written) return false;
    if (!problems.length) return true;
    const owner = await this.deps.activeOwner(ownerId);
    if (!owner) return true;
    const { address, mailer } = await this.deps.notifier(ownerId);
    if (!mailer) return true;
    const base = this.deps.publicUrl().replace(/\/+$/, '');
    const content = healthEmailContent({
      title: article.title,
      place: slotPlace(version, channels),
      window,
      when: approvalTimeText(new Date(slot), owner.timezone),
      problems,
      settingsUrl: `${base}/settings`,
      editorUrl: `${base}/create?articleId=${encodeURIComponent(article.id)}`,
    });
    await mailer.send({ to: address || owner.email, ...content });
    return true;
  }

  /** Tells the owner once of a channel's connection expiring within 7 days: true when told now. */
  private async tellExpiry(ownerId: string, channel: string, now: Date): Promise<boolean> {
    const expiry = await this.deps.probe.expiry(ownerId, channel);
    if (!expiry) return false;
    const { label, expiresAt } = expiry;
    const left = Date.parse(expiresAt) - now.getTime();
    if (!(left > 0 && left <= CONNECTION_EXPIRY_WARNING_MS)) return false;
    if ((await this.deps.expiryTold.get(ownerId, channel)) === expiresAt) return false;
    await this.deps.expiryTold.set(ownerId, channel, expiresAt);
    const owner = await this.deps.activeOwner(ownerId);
    const when = approvalTimeText(new Date(expiresAt), owner?.timezone ?? 'UTC');
    const base = this.deps.publicUrl().replace(/\/+$/, '');
    const content = expiryEmailContent({ label, when, settingsUrl: `${base}/settings` });
    await this.deps.articles.recordEvents([
      outboxEntry(
        makeEvent(
          'ConnectionProblem',
          {
            userId: ownerId,
            articleId: null,
            actorId: null,
            title: null,
            platform: null,
            scheduledFor: null,
            window: null,
            problems: [{ channel, code: `${channel}_expiring_soon`, message: content.message }],
            expiresAt,
          },
          now,
        ),
      ),
    ]);
    if (!owner) return true;
    const { address, mailer } = await this.deps.notifier(ownerId);
    if (mailer)
      await mailer.send({
        to: address || owner.email,
        subject: content.subject,
        html: content.html,
        text: content.text,
      });
    return true;
  }
}
