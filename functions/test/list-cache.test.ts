import { describe, expect, it } from 'vitest';
import { ListCache } from '../src/http/list-cache.js';

const builder = (text: string) => {
  let calls = 0;
  const build = async () => {
    calls++;
    return `${text}#${calls}`;
  };
  return { build, calls: () => calls };
};

describe('ListCache', () => {
  it('reuses an answer while the version stays, and rebuilds it when the version moves', async () => {
    const cache = new ListCache();
    const b = builder('all');
    expect(await cache.get('u1', '1', 'all', b.build)).toBe('all#1');
    expect(await cache.get('u1', '1', 'all', b.build)).toBe('all#1');
    expect(await cache.get('u1', '2', 'all', b.build)).toBe('all#2');
    // Back to an older version (another process's view): rebuilt, never the newer answer.
    expect(await cache.get('u1', '1', 'all', b.build)).toBe('all#3');
    expect(b.calls()).toBe(3);
  });

  it('keeps answers per owner and per list', async () => {
    const cache = new ListCache();
    const all = builder('all');
    const published = builder('published');
    expect(await cache.get('u1', '1', 'all', all.build)).toBe('all#1');
    expect(await cache.get('u1', '1', 'published', published.build)).toBe('published#1');
    expect(await cache.get('u2', '1', 'all', all.build)).toBe('all#2');
    expect(await cache.get('u1', '1', 'all', all.build)).toBe('all#1');
    expect(await cache.get('u1', '1', 'published', published.build)).toBe('published#1');
  });

  it('builds once for concurrent requests of the same answer', async () => {
    const cache = new ListCache();
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const build = async () => {
      calls++;
      await gate;
      return 'body';
    };
    const pending = [
      cache.get('u1', '1', 'all', build),
      cache.get('u1', '1', 'all', build),
      cache.get('u1', '1', 'all', build),
    ];
    release();
    expect(await Promise.all(pending)).toEqual(['body', 'body', 'body']);
    expect(calls).toBe(1);
  });

  it('a failed build is not kept', async () => {
    const cache = new ListCache();
    await expect(
      cache.get('u1', '1', 'all', async () => Promise.reject(new Error('DynamoDB is down'))),
    ).rejects.toThrow('DynamoDB is down');
    expect(await cache.get('u1', '1', 'all', async () => 'body')).toBe('body');
  });

  it('drops the least recently used owners beyond its size, and answers older than its age', async () => {
    let now = 0;
    const cache = new ListCache({ maxChars: 10, maxAgeMs: 1000, now: () => now });
    const b = builder('1234');
    await cache.get('u1', '1', 'all', b.build); // 6 characters
    await cache.get('u2', '1', 'all', b.build); // 12 in all: u1 goes
    expect(await cache.get('u2', '1', 'all', b.build)).toBe('1234#2');
    expect(await cache.get('u1', '1', 'all', b.build)).toBe('1234#3');
    now = 1001;
    expect(await cache.get('u1', '1', 'all', b.build)).toBe('1234#4');
  });
});
