import { describe, expect, it } from 'vitest';
import { goesTo } from '../src/index.js';

describe('goesTo (an article’s channels)', () => {
  it('every channel when the article names none; only those it names when an import did (Article.channels)', () => {
    expect(goesTo({}, 'wordpress')).toBe(true);
    expect(goesTo({ channels: [] }, 'linkedin')).toBe(true);
    expect(goesTo({ channels: ['linkedin'] }, 'linkedin')).toBe(true);
    expect(goesTo({ channels: ['linkedin'] }, 'wordpress')).toBe(false);
  });
});
