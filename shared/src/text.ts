import * as z from 'zod/mini';

/**
 * Characters that stored text may not contain:
 * - the C0 control characters except tab, line feed and carriage return (U+0000–U+001F): NUL ends
 *   strings in C code and logs, the others are invisible or move the cursor;
 * - DEL and the C1 control characters (U+007F–U+009F), which terminals and some viewers act on;
 * - the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which
 *   make text display in another order than it is stored ("invoice‮fdp.exe", Trojan Source), so
 *   what a reviewer approves is not what is published.
 *
 * The marks U+200E/U+200F (LRM/RLM) and U+061C (ALM) stay allowed: writers of Arabic, Hebrew or
 * Persian need them to place punctuation and numbers correctly, and a mark is a single invisible
 * letter of one direction: it cannot turn a run of text around the way an override or isolate does.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const UNSAFE_TEXT_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

export const hasUnsafeCharacters = (value: string): boolean => UNSAFE_TEXT_CHARACTERS.test(value);

export const unsafeCharactersMessage = (label: string): string =>
  `${label} contains characters that are not allowed (control or text-direction characters)`;

/**
 * The check every stored text field carries: `z.string().check(z.maxLength(…), safeCharacters('Title'))`.
 * A check, not a wrapper, so the field stays a plain string schema (its limits remain readable).
 */
export const safeCharacters = (label: string) =>
  z.refine<string>((value) => !hasUnsafeCharacters(value), unsafeCharactersMessage(label));

/** Names in a sentence: "A", "A and B", "A, B and C" (the channels an approval publishes to). */
export const listText = (items: readonly string[]): string =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
