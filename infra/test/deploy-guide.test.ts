import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { routes } from '@app/shared/api';
import { AI_CONTEXT_ENV } from '../lib/capabilities.js';
import { repoRoot } from '../lib/paths.js';
import { testApp } from './helpers.js';

/** The README's "Deploy to AWS" section. */
const guide = (): string => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Deploy to AWS\n');
  expect(start, 'README has a "Deploy to AWS" section').toBeGreaterThan(-1);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
};

/** The context keys infra/lib/app.ts reads. */
const contextKeys = (): string[] => {
  const source = readFileSync(join(repoRoot, 'infra', 'lib', 'app.ts'), 'utf8');
  const read = [
    ...source.matchAll(/(?:contextString|contextFlag|contextNumber)\(app, '(\w+)'[,)]|tryGetContext\('(\w+)'\)/g),
  ].map((m) => m[1] ?? m[2]!);
  return [...new Set([...read, ...Object.keys(AI_CONTEXT_ENV)])].sort();
};

describe('README: Deploy to AWS stays true to the stack', () => {
  it('has a row for every context value the app reads', () => {
    const keys = contextKeys();
    expect(keys).toEqual(
      expect.arrayContaining([
        'stage',
        'adminEmail',
        'publicUrl',
        'domainName',
        'certificateArn',
        'alarmEmail',
        'alarmTopicArn',
        'tableName',
        'waf',
        'wafManagedRules',
        'webAclArn',
        'apiThrottleRate',
        'apiThrottleBurst',
        'linkedinApiVersion',
      ]),
    );
    const rows = guide()
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split('|')[1]!);
    for (const key of keys)
      expect(
        rows.some((cell) => cell.includes(`\`${key}\``)),
        key,
      ).toBe(true);
  });

  it('names the OAuth callback paths of the route table', () => {
    const callbacks = routes.filter((r) => r.id.endsWith('.callback')).map((r) => r.path);
    expect(callbacks.sort()).toEqual(['/api/email/oauth/callback', '/api/linkedin/callback', '/api/sheets/callback']);
    for (const path of callbacks) expect(guide()).toContain(`<publicUrl>${path}`);
  });

  it("counts the stack's alarms as the template has them (the cost table: a metric math alarm is billed per metric, a Metrics Insights alarm per series it reads)", () => {
    const { stack } = testApp({ context: { alarmEmail: 'ops@example.com' } });
    const alarms = Object.values(Template.fromStack(stack).findResources('AWS::CloudWatch::Alarm')) as {
      Properties: { Metrics?: { MetricStat?: unknown; Expression?: string }[] };
    }[];
    const isQuery = (a: (typeof alarms)[number]) =>
      a.Properties.Metrics?.some((m) => m.Expression?.startsWith('SELECT'));
    const count = alarms
      .filter((a) => !isQuery(a))
      .map((a) => (a.Properties.Metrics ? a.Properties.Metrics.filter((m) => m.MetricStat).length : 1))
      .reduce((sum, n) => sum + n, 0);
    expect(guide()).toContain(`CloudWatch alarms: ${count} × $0.10`);
    expect(guide()).toContain(`$${(count * 0.1).toFixed(2)}`);
    expect(guide()).toContain(`${alarms.filter(isQuery).length} Metrics Insights alarms`);
  });
});
