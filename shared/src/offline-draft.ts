/**
 * The note an offline draft carries (functions/src/adapters/ai/offline/draft.ts writes it when no OpenAI key is
 * configured) and the one rule that finds it: publishing (Publish Now, an approval link) refuses a version while the
 * note is in it, the editor highlights its line, and the approval e-mail can say the text needs an edit.
 */
import type { Platform } from './articles.js';

/** How every offline draft's note begins. */
export const OFFLINE_DRAFT_NOTE_START = 'Offline draft — composed from your brief without AI.';

/** The note at the top of an offline blog draft (a Markdown quote). */
export const OFFLINE_BLOG_NOTE = `> ${OFFLINE_DRAFT_NOTE_START} Add an OpenAI key in Settings → API Keys (openai_api_key) for AI drafts.`;

/** The note at the top of an offline LinkedIn draft. */
export const OFFLINE_LINKEDIN_NOTE = `[${OFFLINE_DRAFT_NOTE_START} Delete this line before publishing.]`;

const lineWords = (lines: readonly number[]) => `${lines.length > 1 ? 'Lines' : 'Line'} ${lines.join(', ')}`;

export const OfflineDraftMessages = {
  /** Publishing a version that still has the note (400, code offline_draft_note). */
  publishRefused: (platform: Platform, lines: readonly number[]) =>
    `Remove the offline-draft note before publishing: ${lineWords(lines).toLowerCase()} of the ${
      platform === 'blog' ? 'blog' : 'LinkedIn'
    } text ${lines.length > 1 ? 'are' : 'is'} still the note "Offline draft — …".`,
  /**
   * The approval e-mail's warning: approving would be refused until the note is taken out. `platform`: the blog or
   * LinkedIn version, or the name of a channel's own version (its channel's label).
   */
  emailNeedsEdit: (platform: Platform | (string & {}), lines: readonly number[]) =>
    `This text needs an edit before it can go out: ${lineWords(lines).toLowerCase()} of the ${
      platform === 'blog' ? 'blog' : platform === 'linkedin' ? 'LinkedIn' : platform
    } text ${lines.length > 1 ? 'are' : 'is'} still the offline-draft note. Open the article on the Schedule page, remove the note, then approve.`,
  /** Under the editor while the note is in its text (the line is highlighted in it). */
  editorNote: (lines: readonly number[]) =>
    `${lineWords(lines)} (highlighted) ${lines.length > 1 ? 'are' : 'is'} the offline-draft note. Remove the offline-draft note before publishing.`,
} as const;

/** One line of a text that is the offline-draft note. */
export interface OfflineDraftNoteLine {
  /** 1-based line number. */
  line: number;
  /** Where the line starts and ends in the text (character offsets, the line break not included). */
  start: number;
  end: number;
  text: string;
}

/**
 * The note's sentence, however its line was touched: a quote mark, brackets or spaces around it, another dash,
 * other case. Only the product's own words are matched, not someone writing about offline drafts.
 */
const NOTE = /offline\s+draft\s*[\u2014\u2013-]+\s*composed\s+from\s+your\s+brief\s+without\s+AI\b/i;

/** Whether one line (without its line break) is the offline-draft note. */
export const isOfflineDraftNoteLine = (line: string): boolean => NOTE.test(line);

/** The lines of `text` that carry the offline-draft note (none: the text can be published). */
export function offlineDraftNoteLines(text: string): OfflineDraftNoteLine[] {
  const found: OfflineDraftNoteLine[] = [];
  let start = 0;
  text.split('\n').forEach((raw, index) => {
    const end = start + raw.length;
    const line = raw.replace(/\r$/, '');
    if (isOfflineDraftNoteLine(line)) found.push({ line: index + 1, start, end: start + line.length, text: line });
    start = end + 1;
  });
  return found;
}

/** Whether `text` still carries the offline-draft note. */
export function hasOfflineDraftNote(text: string): boolean {
  return offlineDraftNoteLines(text).length > 0;
}

/** `text` without the note's lines (and the blank line each leaves), as the editor's "Remove the note" does. */
export function withoutOfflineDraftNote(text: string): string {
  const notes = new Set(offlineDraftNoteLines(text).map((n) => n.line));
  if (!notes.size) return text;
  const lines = text.split('\n');
  const kept: string[] = [];
  lines.forEach((line, index) => {
    if (notes.has(index + 1)) return;
    // The blank line after a removed note would leave the text starting (or a paragraph gap doubled) with it.
    if (!line.trim() && notes.has(index) && (kept.length === 0 || !kept.at(-1)!.trim())) return;
    kept.push(line);
  });
  return kept.join('\n');
}
