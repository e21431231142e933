import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  LINKEDIN_API_VERSION,
  linkedInVersionWarning,
  parseLinkedInVersion,
} from '../src/channels/linkedin/version.js';
import { loadConfig } from '../src/config.js';
import { logger } from '../src/logger.js';
import { linkedInPublisher } from '../src/channels/linkedin/publisher.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the LinkedIn-Version is configuration', () => {
  it('LINKEDIN_API_VERSION sets it; without it, the default', () => {
    expect(loadConfig({}).linkedinApiVersion).toBe(LINKEDIN_API_VERSION);
    expect(loadConfig({ LINKEDIN_API_VERSION: ' 202610 ' }).linkedinApiVersion).toBe('202610');
  });

  it('a version is YYYYMM with a real month', () => {
    expect(parseLinkedInVersion('202612')).toBe('202612');
    for (const bad of ['2026-01', '202613', '202600', '20261', 'latest'])
      expect(() => parseLinkedInVersion(bad), bad).toThrow(/must be a LinkedIn API version as YYYYMM/);
  });
});

describe('an old LinkedIn-Version is warned about in the log (fixed clock)', () => {
  it('from ten months after its month on, not before', () => {
    expect(linkedInVersionWarning('202601', new Date('2026-10-31T23:59:59.999Z'))).toBeUndefined();
    expect(linkedInVersionWarning('202601', new Date('2026-11-01T00:00:00.000Z'))).toMatch(
      /^LinkedIn-Version 202601 is more than 10 months old: .*linkedinApiVersion/,
    );
    // Across a year's end: 202605 → from 2027-03-01.
    expect(linkedInVersionWarning('202605', new Date('2027-02-28T12:00:00Z'))).toBeUndefined();
    expect(linkedInVersionWarning('202605', new Date('2027-03-01T00:00:00Z'))).toBeDefined();
  });

  it('building the LinkedIn publisher with an old configured version logs the warning once, naming the version', () => {
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {});
    const config = loadConfig({ LINKEDIN_API_VERSION: '202501' });
    const now = () => new Date('2025-12-15T10:00:00Z');
    linkedInPublisher(config, now);
    linkedInPublisher(config, now);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^LinkedIn-Version 202501 is more than 10 months old/), {
      linkedinApiVersion: '202501',
    });
    // A current version: no warning.
    linkedInPublisher(loadConfig({ LINKEDIN_API_VERSION: '202510' }), now);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
