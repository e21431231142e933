import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether two texts are equal, taking the same time wherever they differ: both are hashed first,
 * so the lengths match too. For comparing a given code or secret with the expected one.
 */
export function equalInConstantTime(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}
