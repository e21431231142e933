/**
 * The README's "Events for automation" stays true to the schemas of functions/src/domain/automation-events.ts:
 * every event and every field is documented, and the example event is one the schemas accept.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AUTOMATION_EVENT_NAMES,
  AUTOMATION_EVENT_SCHEMAS,
  EVENT_SOURCE,
  detailTypeOf,
  type AutomationEventName,
} from '../src/domain/automation-events.js';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
const section = (() => {
  const start = readme.indexOf('## Events for automation');
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end);
})();

describe('README: Events for automation', () => {
  it('is there', () => {
    expect(section.length).toBeGreaterThan(1000);
  });

  it.each(AUTOMATION_EVENT_NAMES)(
    'documents %s: its detail-type, when, where, and every field of its detail',
    (name) => {
      const detailType = detailTypeOf(name);
      // In both tables: when and where it is emitted, and its fields.
      expect(section.split(`| \`${detailType}\` |`).length - 1, detailType).toBe(2);
      for (const field of Object.keys(AUTOMATION_EVENT_SCHEMAS()[name].shape)) {
        expect(section, `${detailType}.${field}`).toContain(`\`${field}\``);
      }
    },
  );

  it('says whom each event’s actorId names: in the common paragraph, or in its fields row', () => {
    const common = section.slice(section.indexOf('and most an `actorId`'), section.indexOf('Beyond those:'));
    for (const name of AUTOMATION_EVENT_NAMES) {
      const fieldsRow = section.split('\n').filter((line) => line.startsWith(`| \`${detailTypeOf(name)}\` | \``));
      expect(common.includes(`\`${name}\``) || fieldsRow.some((row) => row.includes('`actorId`')), name).toBe(true);
    }
    // Drafting names the member who asked, as the other events of a member's action do.
    expect(common).toMatch(/`ArticleDrafted` of the\s+drafting a member asked for/);
  });

  it('names the ScheduleMissed codes the code emits', () => {
    for (const code of ['owner_inactive', 'email_not_configured', 'email_failed', 'run_failed'])
      expect(section).toContain(`\`${code}\``);
  });

  it('its example event is one the schemas accept, in the envelope a rule sees', () => {
    const json = /```json\n([\s\S]*?)```/.exec(section)![1]!;
    const event = JSON.parse(json) as { source: string; 'detail-type': string; detail: unknown };
    expect(event.source).toBe(EVENT_SOURCE);
    const name = event['detail-type'].replace(/\.v1$/, '') as AutomationEventName;
    expect(AUTOMATION_EVENT_NAMES).toContain(name);
    expect(() => AUTOMATION_EVENT_SCHEMAS()[name].parse(event.detail)).not.toThrow();
  });

  it('its example rule matches the source and detail-types the code emits', () => {
    const pattern = /--event-pattern '([^']+)'/.exec(section)![1]!;
    const parsed = JSON.parse(pattern) as { source: string[]; 'detail-type': string[] };
    expect(parsed.source).toEqual([EVENT_SOURCE]);
    for (const type of parsed['detail-type']) expect(AUTOMATION_EVENT_NAMES.map(detailTypeOf)).toContain(type);
  });
});
