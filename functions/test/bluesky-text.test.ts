import { describe, expect, it } from 'vitest';
import {
  describeBlueskyCredentials,
  parseBlueskyCredentials,
  CredentialMessages,
} from '../src/channels/bluesky/credentials.js';
import {
  detectFacets,
  facetText,
  findHashtags,
  findLinks,
  graphemeLength,
  postRecordKey,
  postTextProblem,
  tid,
} from '../src/channels/bluesky/text.js';

/** Bluesky's text rules (src/channels/bluesky/text.ts) and its credentials (credentials.ts), as pure functions. */

const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}'; // four people joined by zero-width joiners
const THUMB_MEDIUM = '\u{1F44D}\u{1F3FD}'; // thumbs up with a skin tone
const FLAG = '\u{1F1EB}\u{1F1F7}'; // two regional indicators
const E_ACUTE_COMBINING = 'e\u0301';

describe('graphemes', () => {
  it('counts what a reader sees as one character once', () => {
    expect(graphemeLength('hello')).toBe(5);
    expect(graphemeLength(FAMILY)).toBe(1);
    expect(FAMILY.length).toBe(11);
    expect(graphemeLength(THUMB_MEDIUM)).toBe(1);
    expect(graphemeLength(FLAG)).toBe(1);
    expect(graphemeLength(E_ACUTE_COMBINING)).toBe(1);
    expect(graphemeLength(`a${FAMILY}b${FLAG}c`)).toBe(5);
  });

  it('allows 300 graphemes and refuses 301, saying by how much', () => {
    expect(postTextProblem(THUMB_MEDIUM.repeat(300))).toBeUndefined();
    expect(postTextProblem('x'.repeat(301))).toBe(
      'The Bluesky post is 301 characters long; Bluesky allows 300. Shorten it by 1.',
    );
    expect(postTextProblem(`${'a'.repeat(299)}${FAMILY}`)).toBeUndefined();
  });

  it('refuses a text within 300 graphemes but over 3000 bytes', () => {
    // 300 families of four are 300 graphemes and 7,500 bytes of UTF-8
    expect(postTextProblem(FAMILY.repeat(300))).toBe(
      'The Bluesky post is too long for Bluesky (7500 bytes of text, at most 3000). Shorten it.',
    );
  });
});

describe('facets', () => {
  it('gives links and hashtags as UTF-8 byte ranges that cut out exactly their text', () => {
    const text = `Gr\u00fc\u00dfe ${FAMILY} aus K\u00f6ln: https://example.com/st\u00e4dte?q=1 #K\u00f6ln #caf\u00e9`;
    const facets = detectFacets(text);
    expect(facets.map((facet) => facetText(text, facet))).toEqual([
      'https://example.com/st\u00e4dte?q=1',
      '#K\u00f6ln',
      '#caf\u00e9',
    ]);
    expect(facets.map((facet) => facet.features)).toEqual([
      [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/st\u00e4dte?q=1' }],
      [{ $type: 'app.bsky.richtext.facet#tag', tag: 'K\u00f6ln' }],
      [{ $type: 'app.bsky.richtext.facet#tag', tag: 'caf\u00e9' }],
    ]);
    const utf16Start = text.indexOf('https://');
    const byteStart = Buffer.byteLength(text.slice(0, utf16Start), 'utf8');
    expect(facets[0]!.index).toEqual({
      byteStart,
      byteEnd: byteStart + Buffer.byteLength('https://example.com/st\u00e4dte?q=1', 'utf8'),
    });
    // the UTF-16 index JavaScript counts would point elsewhere: 2 more bytes for ü and ß, 14 for the family
    // (25 bytes in 11 UTF-16 units), 1 for ö
    expect(byteStart).toBe(utf16Start + 2 + 14 + 1);
  });

  it('leaves sentence punctuation and an unmatched closing bracket out of a link', () => {
    expect(
      findLinks('See https://example.com/a. And (https://example.com/b), then https://x.org/c?!').map((l) => l.uri),
    ).toEqual(['https://example.com/a', 'https://example.com/b', 'https://x.org/c']);
    expect(findLinks('https://en.wikipedia.org/wiki/Fish_(food) is good').map((l) => l.uri)).toEqual([
      'https://en.wikipedia.org/wiki/Fish_(food)',
    ]);
    expect(findLinks('no link: example.com, ftp://example.com, https://nodot')).toEqual([]);
  });

  it('takes a hashtag only at a word start, not all digits, without trailing punctuation', () => {
    expect(findHashtags('#first a#not #123 #2026news #tag! #\u65e5\u672c\u8a9e. \uFF03wide').map((t) => t.tag)).toEqual(
      ['first', '2026news', 'tag', '\u65e5\u672c\u8a9e', 'wide'],
    );
    expect(findHashtags(`#${'a'.repeat(65)}`)).toEqual([]);
    expect(findHashtags(`#${'a'.repeat(64)}`)).toHaveLength(1);
  });

  it('does not make a hashtag of a link fragment, and mentions only the accounts it knows', () => {
    const text = 'Read https://example.com/page#section with @alice.test and @nobody.test';
    const facets = detectFacets(text, new Map([['alice.test', 'did:plc:alice']]));
    expect(facets.map((facet) => [facetText(text, facet), facet.features[0]])).toEqual([
      [
        'https://example.com/page#section',
        { $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/page#section' },
      ],
      ['@alice.test', { $type: 'app.bsky.richtext.facet#mention', did: 'did:plc:alice' }],
    ]);
  });

  it('finds nothing in plain text', () => {
    expect(detectFacets('Just words, #, and 100% more.')).toEqual([]);
  });
});

describe('record keys', () => {
  it('are TIDs: 13 base32-sortable characters of time and clock id', () => {
    expect(tid(0n, 0)).toBe('2222222222222');
    // one microsecond is 1 << 10 (the clock id takes the low 10 bits): 32 * 32
    expect(tid(1n, 0)).toBe('2222222222322');
    expect(tid(0n, 1023)).toBe('22222222222zz');
    const key = postRecordKey('article-1', 'bluesky', '2026-03-01T10:00:00Z');
    expect(key).toMatch(/^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/);
  });

  it('are the same for the same article, channel and time, and differ otherwise', () => {
    const key = postRecordKey('article-1', 'bluesky', '2026-03-01T10:00:00Z');
    expect(postRecordKey('article-1', 'bluesky', new Date('2026-03-01T10:00:00Z'))).toBe(key);
    expect(postRecordKey('article-2', 'bluesky', '2026-03-01T10:00:00Z')).not.toBe(key);
    expect(postRecordKey('article-1', 'linkedin', '2026-03-01T10:00:00Z')).not.toBe(key);
    // later times sort later, as the keys of posts made one after the other do
    expect(postRecordKey('article-1', 'bluesky', '2026-03-01T10:00:01Z') > key).toBe(true);
    expect(() => postRecordKey('article-1', 'bluesky', 'not a time')).toThrow(RangeError);
  });
});

describe('credentials', () => {
  const valid = { handle: ' @Alice.BSKY.social ', appPassword: 'abcd-efgh-ijkl-mnop' };

  it('normalise the handle and default the service to bsky.social', () => {
    expect(parseBlueskyCredentials(valid)).toEqual({
      handle: 'alice.bsky.social',
      appPassword: 'abcd-efgh-ijkl-mnop',
      serviceUrl: 'https://bsky.social',
    });
    expect(parseBlueskyCredentials({ ...valid, serviceUrl: 'https://pds.example.org/' }).serviceUrl).toBe(
      'https://pds.example.org',
    );
  });

  it.each([
    [{ ...valid, handle: '' }, CredentialMessages.handleMissing, 'bluesky_handle_invalid'],
    [{ ...valid, handle: 'alice' }, CredentialMessages.handleInvalid, 'bluesky_handle_invalid'],
    [{ ...valid, handle: 'al ice.bsky.social' }, CredentialMessages.handleInvalid, 'bluesky_handle_invalid'],
    [{ ...valid, appPassword: '' }, CredentialMessages.appPasswordMissing, 'bluesky_appPassword_invalid'],
    [
      { ...valid, appPassword: 'my account password' },
      CredentialMessages.appPasswordInvalid,
      'bluesky_appPassword_invalid',
    ],
    [{ ...valid, serviceUrl: 'ftp://bsky.social' }, CredentialMessages.serviceUrlInvalid, 'bluesky_serviceUrl_invalid'],
    [
      { ...valid, serviceUrl: 'https://bsky.social/xrpc' },
      CredentialMessages.serviceUrlInvalid,
      'bluesky_serviceUrl_invalid',
    ],
    [{ handle: 'alice.bsky.social' }, CredentialMessages.appPasswordMissing, 'bluesky_appPassword_invalid'],
  ])('refuse %j with a message that says what to enter', (input, message, code) => {
    let error: unknown;
    try {
      parseBlueskyCredentials(input);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toMatchObject({ kind: 'invalid', message, code });
    if ('appPassword' in input && input.appPassword) expect((error as Error).message).not.toContain(input.appPassword);
  });

  it('refuse unknown fields', () => {
    expect(() => parseBlueskyCredentials({ ...valid, password: 'x' })).toThrow('Unknown field: password.');
  });

  it('show the app password only masked', () => {
    const shown = describeBlueskyCredentials(parseBlueskyCredentials(valid));
    expect(shown.appPassword).not.toContain('abcd');
    expect(shown.appPassword).toMatch(/mnop$/);
    expect(JSON.stringify(shown)).not.toContain('abcd-efgh-ijkl-mnop');
  });
});
