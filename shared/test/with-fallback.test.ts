import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { withFallback } from '../src/lazy-schema.js';

describe('withFallback (z.catch without the whole util namespace of zod)', () => {
  it('answers the value where it fits the schema, else the fallback, at any depth', () => {
    const text = withFallback(z.optional(z.string()), undefined);
    const answer = withFallback(z.object({ code: text, items: withFallback(z.array(z.number()), []) }), {
      code: undefined,
      items: [],
    });
    expect(answer.parse({ code: 'x', items: [1, 2] })).toEqual({ code: 'x', items: [1, 2] });
    expect(answer.parse({ code: 42, items: 'no' })).toEqual({ code: undefined, items: [] });
    expect(answer.parse('not an object')).toEqual({ code: undefined, items: [] });
    expect(z.safeParse(text, 7).success).toBe(true);
  });
});
