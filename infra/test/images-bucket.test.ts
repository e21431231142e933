import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { logicalId, synthesizeDefaultStack, type Resource, type Statement } from './helpers.js';

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
});
