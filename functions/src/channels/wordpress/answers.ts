/**
 * Reading what the WordPress REST API answers, shared by the connection check (wordpress.ts) and
 * publishing (wordpress-publish.ts): its JSON as sites really send it, its error bodies
 * (`{code, message, data: {status}}`) and their messages as plain text for our own sentences.
 * Each caller turns them into its own codes and actionable messages.
 */

import * as z from 'zod/mini';
import { lazySchema } from '@app/shared';

/** A WordPress error body (WP_Error as REST JSON: `{code, message, data}`; we read code and message). */
const WpErrorSchema = lazySchema(() => z.object({ code: z.string(), message: z.string() }));
export type WpError = z.infer<ReturnType<typeof WpErrorSchema>>;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isWpError(value: unknown): value is WpError {
  return WpErrorSchema().safeParse(value).success;
}

/** WordPress messages can carry HTML (<strong>Error:</strong>) and entities. */
export function plainWpMessage(message: string): string {
  return message
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim();
}

/**
 * JSON, tolerating a BOM; undefined for an empty or non-JSON text. With `skipLeadingNoise`, PHP
 * notices printed before the JSON are skipped too.
 */
export function parseWpJson(text: string, skipLeadingNoise: boolean): unknown {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (!trimmed) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    if (!skipLeadingNoise) return undefined;
    const start = trimmed.search(/[{[]/);
    if (start <= 0) return undefined;
    try {
      return JSON.parse(trimmed.slice(start));
    } catch {
      return undefined;
    }
  }
}
