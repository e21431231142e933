import { describe, expect, it } from 'vitest';
import {
  OFFLINE_BLOG_NOTE,
  OFFLINE_LINKEDIN_NOTE,
  OfflineDraftMessages,
  hasOfflineDraftNote,
  offlineDraftNoteLines,
  withoutOfflineDraftNote,
} from '../src/index.js';

describe('the offline-draft note: one rule for publishing, the editor and the approval e-mail', () => {
  it('finds the note of either draft, with its line and where it is in the text', () => {
    const blog = `${OFFLINE_BLOG_NOTE}\n\nThis article is about calm teams.`;
    expect(offlineDraftNoteLines(blog)).toEqual([
      { line: 1, start: 0, end: OFFLINE_BLOG_NOTE.length, text: OFFLINE_BLOG_NOTE },
    ]);
    const linkedin = `Hook line.\r\n\r\n${OFFLINE_LINKEDIN_NOTE}\r\nMore.`;
    const [found] = offlineDraftNoteLines(linkedin);
    expect(found).toMatchObject({ line: 3, text: OFFLINE_LINKEDIN_NOTE });
    expect(linkedin.slice(found!.start, found!.end)).toBe(OFFLINE_LINKEDIN_NOTE);
    expect(hasOfflineDraftNote(blog) && hasOfflineDraftNote(linkedin)).toBe(true);
  });

  it('still finds a note that was only partly edited (brackets, quote mark, dash, case)', () => {
    for (const line of [
      'Offline draft — composed from your brief without AI.',
      '  offline draft - composed from your brief without ai',
      '> OFFLINE DRAFT – Composed from your brief without AI. (delete me)',
    ])
      expect(offlineDraftNoteLines(`Intro\n${line}\nEnd`).map((n) => n.line)).toEqual([2]);
  });

  it('does not take a text about offline drafts for the note', () => {
    for (const text of [
      'Our offline draft process: composed from interviews.',
      'Write an offline draft first, then polish it.',
      '',
    ])
      expect(hasOfflineDraftNote(text)).toBe(false);
  });

  it('removing the note takes its line and the blank line it leaves, nothing else', () => {
    expect(withoutOfflineDraftNote(`${OFFLINE_BLOG_NOTE}\n\nIntro.\n\n## Part\n\nText.`)).toBe(
      'Intro.\n\n## Part\n\nText.',
    );
    expect(withoutOfflineDraftNote(`Hook.\n\n${OFFLINE_LINKEDIN_NOTE}\n\nMore.`)).toBe('Hook.\n\nMore.');
    expect(withoutOfflineDraftNote('No note.\n\nAt all.')).toBe('No note.\n\nAt all.');
  });

  it('says which line to remove', () => {
    expect(OfflineDraftMessages.publishRefused('blog', [1])).toBe(
      'Remove the offline-draft note before publishing: line 1 of the blog text is still the note "Offline draft — …".',
    );
    expect(OfflineDraftMessages.publishRefused('linkedin', [1, 9])).toMatch(
      /^Remove the offline-draft note before publishing: lines 1, 9 of the LinkedIn text are still the note/,
    );
    expect(OfflineDraftMessages.editorNote([3])).toBe(
      'Line 3 (highlighted) is the offline-draft note. Remove the offline-draft note before publishing.',
    );
  });
});
