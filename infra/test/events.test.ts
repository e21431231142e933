/**
 * The bus of the domain events for automation (README, Events for automation): one per stage, named
 * after the stack, an output naming it, and only the functions that emit may put events on it
 * (the per-function grants and EVENT_BUS_NAME: access.test.ts).
 */
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { FUNCTION_ACCESS } from '../lib/content-publisher-stack.js';
import { asArray, logicalId, only, synthesizeDefaultStack, testApp, type Resource, type Statement } from './helpers.js';

const { stack, template } = synthesizeDefaultStack();

describe('the events bus', () => {
  const busId = () => logicalId(stack, stack.eventBus);

  it('is one bus, named after the stack (a rule names it), and is the stack’s output', () => {
    const [id, bus] = only(template.findResources('AWS::Events::EventBus') as Record<string, Resource>);
    expect(id).toBe(busId());
    expect(bus.Properties.Name).toBe('ContentPublisher-events');
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs.EventBusName!.Value).toEqual({ Ref: busId() });
    expect(outputs.EventBusArn!.Value).toEqual({ 'Fn::GetAtt': [busId(), 'Arn'] });
    // The product adds no rule to it (only its archive, event-delivery.test.ts): the teams that consume the events do.
    template.resourceCountIs('AWS::Events::Rule', 0);
  });

  it('each stage has its own bus', () => {
    const dev = Template.fromStack(testApp({ stack: { stage: 'dev', alarmEmail: 'ops@example.com' } }).stack);
    const [, bus] = only(dev.findResources('AWS::Events::EventBus') as Record<string, Resource>);
    expect(bus.Properties.Name).toBe('ContentPublisher-dev-events');
  });

  it('the worker, which delivers the events from the table (event-delivery.ts), has events:PutEvents on it; nothing else in the stack may put events', () => {
    const emitters = Object.entries(FUNCTION_ACCESS)
      .filter(([, access]) => access.includes('events:publish'))
      .map(([name]) => name)
      .sort();
    expect(emitters).toEqual(['worker']);
    const putEvents: unknown[] = [];
    for (const policy of Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>)) {
      for (const statement of policy.Properties.PolicyDocument.Statement as Statement[]) {
        if (asArray(statement.Action).some((a) => a.startsWith('events:'))) {
          expect(statement.Action).toBe('events:PutEvents');
          putEvents.push(statement.Resource);
        }
      }
    }
    expect(putEvents).toEqual(emitters.map(() => ({ 'Fn::GetAtt': [busId(), 'Arn'] })));
  });
});
