import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { LINKEDIN_API_VERSION } from '../../functions/src/channels/linkedin/version.js';
import { MANAGED_RULE_GROUPS } from '../lib/web-acl.js';
import { logicalId, only, testApp, type Resource } from './helpers.js';

const webAcl = (template: Template) =>
  only(template.findResources('AWS::WAFv2::WebACL') as Record<string, Resource>)[1].Properties;

describe('web ACL: managed rule groups behind the wafManagedRules switch, and its log', () => {
  it('off by default: the rate limits only', () => {
    const { stack } = testApp();
    const rules = webAcl(Template.fromStack(stack)).Rules as { Name: string }[];
    expect(rules.map((r) => r.Name)).toEqual(['auth-per-ip', 'api-per-ip']);
  });

  it('wafManagedRules=true adds the common rule set and known bad inputs after the rate limits; body rules only count', () => {
    const { stack } = testApp({ context: { wafManagedRules: 'true' } });
    const rules = webAcl(Template.fromStack(stack)).Rules as Record<string, any>[];
    expect(rules.map((r) => [r.Name, r.Priority])).toEqual([
      ['auth-per-ip', 0],
      ['api-per-ip', 1],
      ['AWSManagedRulesCommonRuleSet', 2],
      ['AWSManagedRulesKnownBadInputsRuleSet', 3],
    ]);
    const common = rules[2]!;
    expect(common.OverrideAction).toEqual({ None: {} });
    expect(common.Statement.ManagedRuleGroupStatement).toMatchObject({
      VendorName: 'AWS',
      Name: 'AWSManagedRulesCommonRuleSet',
    });
    const counted = (common.Statement.ManagedRuleGroupStatement.RuleActionOverrides as Record<string, any>[]).map(
      (o) => [o.Name, o.ActionToUse],
    );
    expect(counted).toEqual(MANAGED_RULE_GROUPS[0].countOnly.map((name) => [name, { Count: {} }]));
    expect(counted.map(([name]) => name)).toContain('SizeRestrictions_BODY');
    expect(rules[3]!.Statement.ManagedRuleGroupStatement.RuleActionOverrides).toBeUndefined();
  });

  it('logs what it blocks or counts to aws-waf-logs-<stack>, cookies and credentials redacted', () => {
    const { stack } = testApp({ context: { stage: 'prod', alarmEmail: 'ops@example.com' } });
    const template = Template.fromStack(stack);
    const [, logging] = only(template.findResources('AWS::WAFv2::LoggingConfiguration') as Record<string, Resource>);
    const webAclId = stack.resolve(stack.getLogicalId(stack.webAcl!.webAcl));
    expect(logging.Properties.ResourceArn).toEqual({ 'Fn::GetAtt': [webAclId, 'Arn'] });
    expect(JSON.stringify(logging.Properties.LogDestinationConfigs)).toContain(
      ':log-group:aws-waf-logs-ContentPublisher-prod"',
    );
    expect(JSON.stringify(logging.Properties.LogDestinationConfigs)).not.toContain(':*');
    expect(logging.Properties.RedactedFields).toEqual([
      { SingleHeader: { Name: 'cookie' } },
      { SingleHeader: { Name: 'authorization' } },
    ]);
    expect(logging.Properties.LoggingFilter.DefaultBehavior).toBe('DROP');
    const group = Object.values(template.findResources('AWS::Logs::LogGroup') as Record<string, Resource>).find(
      (g) => g.Properties.LogGroupName === 'aws-waf-logs-ContentPublisher-prod',
    );
    expect(group?.Properties.RetentionInDays).toBe(90);
  });

  it('no web ACL of the stack (waf=false): no managed rules and no WAF log', () => {
    const { stack } = testApp({ context: { waf: 'false', wafManagedRules: 'true' } });
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    template.resourceCountIs('AWS::WAFv2::LoggingConfiguration', 0);
  });
});

describe('the LinkedIn-Version the functions send: the linkedinApiVersion context value', () => {
  const versions = (stack: ReturnType<typeof testApp>['stack']) =>
    new Set(
      Object.entries(Template.fromStack(stack).findResources('AWS::Lambda::Function') as Record<string, Resource>)
        // The backfill function runs at a deployment and calls no LinkedIn API (table-backfills.ts).
        .filter(([id]) => id !== logicalId(stack, stack.backfills.function.function))
        // Nor do the generic channel routes (content-publisher-stack.ts, GROUPS_WITHOUT_LINKEDIN): checked below.
        .filter(([id]) => id !== logicalId(stack, stack.functions.get('channels')!.function))
        .map(([, fn]) => fn.Properties.Environment.Variables.LINKEDIN_API_VERSION),
    );

  it('every function gets LINKEDIN_API_VERSION: the default, or the context value', () => {
    expect(versions(testApp().stack)).toEqual(new Set([LINKEDIN_API_VERSION]));
    expect(versions(testApp({ context: { linkedinApiVersion: '202610' } }).stack)).toEqual(new Set(['202610']));
  });

  it('the channels function, which calls no LinkedIn API, is not given it', () => {
    const { stack } = testApp();
    const fn = Template.fromStack(stack).findResources('AWS::Lambda::Function')[
      logicalId(stack, stack.functions.get('channels')!.function)
    ] as Resource;
    expect(fn.Properties.Environment.Variables).toHaveProperty('TABLE_NAME');
    expect(fn.Properties.Environment.Variables).not.toHaveProperty('LINKEDIN_API_VERSION');
  });

  it('a value that is not YYYYMM fails synthesis, saying what it must be', () => {
    expect(() => testApp({ context: { linkedinApiVersion: '2026-10' } })).toThrow(
      /linkedinApiVersion must be a LinkedIn API version as YYYYMM \(e\.g\. 202601\), not "2026-10"/,
    );
  });
});
