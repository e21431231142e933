import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { Template } from 'aws-cdk-lib/assertions';
import { UPLOADS_KEY_PREFIX } from '../lib/capabilities.js';
import { logicalId, synthesizeDefaultStack, testApp, type Resource, type Statement } from './helpers.js';

const CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555';

const { stack, template, imagesBucketId } = synthesizeDefaultStack();

describe('images bucket', () => {
  const bucket = () => template.findResources('AWS::S3::Bucket')[imagesBucketId] as Resource;

  it('is private: all public access blocked, objects owned by the bucket owner (no ACLs)', () => {
    expect(bucket().Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket().Properties.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] });
  });

  it('is encrypted at rest and refuses requests without TLS', () => {
    expect(
      bucket().Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault,
    ).toEqual({
      SSEAlgorithm: 'AES256',
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: imagesBucketId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Principal: { AWS: '*' },
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
  });

  it("grants nobody anything in its bucket policy (access is by the functions' IAM policies)", () => {
    const policies = Object.values(template.findResources('AWS::S3::BucketPolicy') as Record<string, Resource>).filter(
      (p) => p.Properties.Bucket?.Ref === imagesBucketId,
    );
    expect(policies).toHaveLength(1);
    for (const statement of policies[0]!.Properties.PolicyDocument.Statement as Statement[])
      expect(statement.Effect).toBe('Deny');
  });

  it('is retained with the stack, logs access to the logs bucket and aborts stale multipart uploads', () => {
    expect(bucket().DeletionPolicy).toBe('Retain');
    expect(bucket().UpdateReplacePolicy).toBe('Retain');
    expect(bucket().Properties.LoggingConfiguration).toEqual({
      DestinationBucketName: { Ref: logicalId(stack, stack.site.logsBucket) },
      LogFilePrefix: 's3/images/',
    });
    const rules = bucket().Properties.LifecycleConfiguration.Rules as Record<string, any>[];
    expect(rules).toContainEqual(
      expect.objectContaining({ Status: 'Enabled', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
    );
  });

  it("lets only the site's own origin post uploads (CORS: POST from the public URL, nothing else)", () => {
    expect(bucket().Properties.CorsConfiguration).toEqual({
      CorsRules: [{ AllowedMethods: ['POST'], AllowedOrigins: [stack.resolve(stack.publicUrl)], MaxAge: 3000 }],
    });
    // Without a public URL of its own: the distribution's address.
    expect(JSON.stringify(stack.resolve(stack.publicUrl))).toContain('DomainName');
    const custom = testApp({ context: { domainName: 'publish.example.com', certificateArn: CERTIFICATE } }).stack;
    const customBucket = Template.fromStack(custom).findResources('AWS::S3::Bucket')[
      logicalId(custom, custom.imagesBucket)
    ] as Resource;
    expect(customBucket.Properties.CorsConfiguration.CorsRules[0].AllowedOrigins).toEqual([
      'https://publish.example.com',
    ]);
  });

  it('expires abandoned raw uploads after a day, and only those (the images stay)', () => {
    const rules = bucket().Properties.LifecycleConfiguration.Rules as Record<string, any>[];
    const expiring = rules.filter((rule) => rule.ExpirationInDays !== undefined);
    expect(expiring).toEqual([
      { Id: 'expire-abandoned-uploads', Prefix: UPLOADS_KEY_PREFIX, ExpirationInDays: 1, Status: 'Enabled' },
    ]);
  });
});
