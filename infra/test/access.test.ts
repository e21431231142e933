import { describe, expect, it } from 'vitest';
import { routeGroups } from '@app/shared/api';
import { IMAGES_KEY_PREFIX, UPLOADS_KEY_PREFIX } from '../lib/capabilities.js';
import { FUNCTION_ACCESS, USER_SECRETS_PREFIX } from '../lib/content-publisher-stack.js';
import { tableIndexes } from '../lib/data-table.js';
import { WORKER_ENTRY_NAME } from '../lib/worker-function.js';
import { asArray, logicalId, synthesizeDefaultStack, type Resource, type Statement } from './helpers.js';

const { stack, template, tableId, secretId, workerAliasId, imagesBucketId, roleOf, policyOf, environmentOf } =
  synthesizeDefaultStack();

describe('IAM', () => {
  const SM_READ = ['secretsmanager:GetSecretValue'];
  /** On the users' secrets; a function that writes them may also delete the one-per-key secrets of before (and only those). */
  const SM_READ_WRITE = [
    'secretsmanager:CreateSecret',
    'secretsmanager:GetSecretValue',
    'secretsmanager:PutSecretValue',
    'secretsmanager:TagResource',
  ];
  /**
   * Besides its logs, the table and (API functions) the session secret, what each function may do,
   * written out here on purpose: a change to FUNCTION_ACCESS must be made here too.
   */
  const EXPECTED: Record<
    string,
    {
      userSecrets: string[];
      invokesWorker: boolean;
      images: string[];
      managesSchedules: boolean;
      sessionKey: boolean;
      sendsBulkJobs?: boolean;
      /** Emits domain events for automation: events:PutEvents on the stack's bus. */
      putsEvents?: boolean;
      /** Signs the browser's image uploads and reads, lists and deletes them under uploads/ only. */
      uploads?: boolean;
      /** Creates (only) schedules in the stack's group: the next attempt of a failed scheduled run. */
      retriesRuns?: boolean;
    }
  > = {
    auth: { userSecrets: [], invokesWorker: false, images: [], managesSchedules: false, sessionKey: true },
    admin: { userSecrets: [], invokesWorker: false, images: [], managesSchedules: false, sessionKey: true },
    settings: {
      userSecrets: SM_READ_WRITE,
      invokesWorker: false,
      images: [],
      managesSchedules: false,
      sessionKey: true,
    },
    articles: { userSecrets: SM_READ, invokesWorker: true, images: [], managesSchedules: false, sessionKey: true },
    dashboard: { userSecrets: [], invokesWorker: false, images: [], managesSchedules: false, sessionKey: true },
    // Uploads: signs the POST, checks the file, stores the crops and deletes the image they replace.
    images: {
      userSecrets: [],
      invokesWorker: true,
      images: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
      managesSchedules: false,
      sessionKey: true,
      uploads: true,
    },
    wordpress: {
      userSecrets: SM_READ_WRITE,
      invokesWorker: false,
      images: ['s3:GetObject'],
      managesSchedules: false,
      sessionKey: true,
      putsEvents: false,
    },
    linkedin: {
      userSecrets: SM_READ_WRITE,
      invokesWorker: false,
      images: ['s3:GetObject'],
      managesSchedules: false,
      sessionKey: true,
      putsEvents: false,
    },
    // The channels of the registry without routes of their own: connect (a secret) and publish, as wordpress.
    channels: {
      userSecrets: SM_READ_WRITE,
      invokesWorker: false,
      images: ['s3:GetObject'],
      managesSchedules: false,
      sessionKey: true,
      putsEvents: false,
    },
    email: { userSecrets: SM_READ_WRITE, invokesWorker: false, images: [], managesSchedules: false, sessionKey: true },
    // Invitations are e-mailed through the workspace's Gmail (its secret), as the email function sends.
    workspaces: {
      userSecrets: SM_READ_WRITE,
      invokesWorker: false,
      images: [],
      managesSchedules: false,
      sessionKey: true,
    },
    schedule: { userSecrets: [], invokesWorker: false, images: [], managesSchedules: true, sessionKey: true },
    approvals: {
      userSecrets: SM_READ,
      invokesWorker: false,
      images: ['s3:GetObject'],
      managesSchedules: false,
      sessionKey: true,
      putsEvents: false,
    },
    // Its drafting jobs go to the bulk job queue (SQS), not to the worker directly.
    sheets: {
      userSecrets: SM_READ_WRITE,
      invokesWorker: false,
      images: [],
      managesSchedules: false,
      sessionKey: true,
      sendsBulkJobs: true,
    },
    // The session key signs the approval links it e-mails.
    // The approval e-mail carries the stored image: the worker reads images as well as writing them.
    // A new image replaces the old one, whose files it deletes.
    // A failed scheduled run schedules its next attempt (create only).
    worker: {
      userSecrets: SM_READ,
      invokesWorker: false,
      images: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
      managesSchedules: false,
      sessionKey: true,
      putsEvents: true,
      retriesRuns: true,
    },
  };
  const SCHEDULE_ENV = ['SCHEDULE_GROUP_NAME', 'SCHEDULE_TARGET_ARN', 'SCHEDULER_ROLE_ARN', 'SCHEDULE_DLQ_ARN'];
  const schedulesArn = () => ({
    'Fn::Join': [
      '',
      [
        'arn:',
        { Ref: 'AWS::Partition' },
        ':scheduler:',
        { Ref: 'AWS::Region' },
        ':',
        { Ref: 'AWS::AccountId' },
        `:schedule/${stack.schedules.group.scheduleGroupName}/*`,
      ],
    ],
  });
  const names = () => [...routeGroups(), WORKER_ENTRY_NAME];
  const userSecretsArn = () => stack.resolve(stack.userSecretsArn) as unknown;
  const oldUserSecretsArn = () => stack.resolve(stack.oldUserSecretsArn) as unknown;
  const writesUserSecrets = (name: string) => EXPECTED[name]!.userSecrets.includes('secretsmanager:PutSecretValue');
  const uploadsObjectsArn = () => ({
    'Fn::Join': ['', [{ 'Fn::GetAtt': [imagesBucketId, 'Arn'] }, `/${UPLOADS_KEY_PREFIX}*`]],
  });
  const imagesObjectsArn = () => ({
    'Fn::Join': ['', [{ 'Fn::GetAtt': [imagesBucketId, 'Arn'] }, `/${IMAGES_KEY_PREFIX}*`]],
  });

  /** [action, resource] of every statement of a function's role, one pair per action and resource. */
  const grantsOf = (name: string, service: string): [string, unknown][] =>
    policyOf(name).flatMap((s) =>
      asArray(s.Action)
        .filter((a) => a.startsWith(`${service}:`))
        .flatMap((a) => asArray(s.Resource).map((r) => [a, r] as [string, unknown])),
    );
  const sorted = (pairs: [string, unknown][]) => pairs.map(([a, r]) => `${a} ${JSON.stringify(r)}`).sort();

  it('every function is expected here (a new route group needs a line in FUNCTION_ACCESS and here)', () => {
    expect(names().sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(Object.keys(FUNCTION_ACCESS).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it('names the per-user secrets by the prefix only: arn:…:secret:content-publisher/*', () => {
    expect(USER_SECRETS_PREFIX).toBe('content-publisher/');
    expect(userSecretsArn()).toEqual({
      'Fn::Join': [
        '',
        [
          'arn:',
          { Ref: 'AWS::Partition' },
          ':secretsmanager:',
          { Ref: 'AWS::Region' },
          ':',
          { Ref: 'AWS::AccountId' },
          ':secret:content-publisher/*',
        ],
      ],
    });
    // The one-per-key secrets of before, <prefix><userId>/<key>: a user's secret (<prefix><userId>) is not among them.
    expect(JSON.stringify(oldUserSecretsArn())).toBe(
      JSON.stringify(userSecretsArn()).replace(':secret:content-publisher/*', ':secret:content-publisher/*/*'),
    );
  });

  it("no function may delete a user's secret: DeleteSecret only on the one-per-key secrets of before, for the functions that write secrets", () => {
    for (const name of names()) {
      const deletes = grantsOf(name, 'secretsmanager').filter(([action]) => action === 'secretsmanager:DeleteSecret');
      expect(deletes, name).toEqual(
        writesUserSecrets(name) ? [['secretsmanager:DeleteSecret', oldUserSecretsArn()]] : [],
      );
    }
  });

  it.each(routeGroups())('%s: reads and writes the table items and its indexes, by name', (group) => {
    const statements = policyOf(group);
    const dynamo = statements.filter((s) => asArray(s.Action).some((a) => a.startsWith('dynamodb:')));
    expect(dynamo).toHaveLength(1);
    expect(asArray(dynamo[0]!.Action).sort()).toEqual(
      [
        'dynamodb:BatchGetItem',
        'dynamodb:BatchWriteItem',
        'dynamodb:ConditionCheckItem',
        'dynamodb:DeleteItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
      ].sort(),
    );
    expect(dynamo[0]!.Resource).toEqual([
      { 'Fn::GetAtt': [tableId, 'Arn'] },
      ...tableIndexes.map((index) => ({
        'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId, 'Arn'] }, `/index/${index.indexName}`]],
      })),
    ]);
  });

  it('worker: the same table access as the API functions, and reads the table’s stream (the domain events)', () => {
    const dynamo = (name: string) => sorted(grantsOf(name, 'dynamodb'));
    const stream = (grant: string) => /Stream/.test(grant);
    expect(dynamo(WORKER_ENTRY_NAME).filter((g) => !stream(g))).toEqual(dynamo(routeGroups()[0]!));
    expect(
      dynamo(WORKER_ENTRY_NAME)
        .filter(stream)
        .map((grant) => grant.split(' ')[0]),
    ).toEqual(['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams']);
  });

  /** Read access to one of the stack's own secrets. */
  const readsSecret = (construct: { node: { defaultChild?: unknown } }): [string, unknown][] => [
    ['secretsmanager:DescribeSecret', { Ref: logicalId(stack, construct) }],
    ['secretsmanager:GetSecretValue', { Ref: logicalId(stack, construct) }],
  ];

  it.each(names())(
    '%s: Secrets Manager: the session secret (if it signs) and the per-user secrets it needs, nothing else',
    (name) => {
      const expected: [string, unknown][] = [
        // API functions check CloudFront's origin secret (infra/test/security.test.ts); auth reads the setup code.
        ...(name === WORKER_ENTRY_NAME ? [] : readsSecret(stack.originSecret)),
        ...(name === 'auth' ? readsSecret(stack.setupCodeSecret) : []),
        ...(EXPECTED[name]!.sessionKey
          ? ([
              ['secretsmanager:DescribeSecret', { Ref: secretId }],
              ['secretsmanager:GetSecretValue', { Ref: secretId }],
            ] as [string, unknown][])
          : []),
        ...EXPECTED[name]!.userSecrets.map((a) => [a, userSecretsArn()] as [string, unknown]),
        ...(writesUserSecrets(name) ? [['secretsmanager:DeleteSecret', oldUserSecretsArn()] as [string, unknown]] : []),
      ];
      expect(sorted(grantsOf(name, 'secretsmanager'))).toEqual(sorted(expected));
      expect(environmentOf(name).SESSION_SECRET_ARN).toEqual(
        EXPECTED[name]!.sessionKey ? { Ref: secretId } : undefined,
      );
      expect(environmentOf(name).SECRETS_PREFIX).toBe(
        EXPECTED[name]!.userSecrets.length > 0 ? USER_SECRETS_PREFIX : undefined,
      );
    },
  );

  it('auth and admin get nothing of Secrets Manager but the session secret, the origin secret and (auth) the setup code', () => {
    for (const group of ['auth', 'admin']) {
      const own = [stack.sessionSecret, stack.originSecret, ...(group === 'auth' ? [stack.setupCodeSecret] : [])];
      for (const [, resource] of grantsOf(group, 'secretsmanager')) {
        expect(own.map((secret) => ({ Ref: logicalId(stack, secret) }))).toContainEqual(resource);
      }
    }
  });

  it.each(names())('%s: invokes the worker, and only the worker, exactly when it starts jobs', (name) => {
    const invokes = grantsOf(name, 'lambda');
    if (EXPECTED[name]!.invokesWorker) {
      // The live alias (its Ref is its ARN), not $LATEST: a deployment shifts the jobs too.
      expect(invokes).toEqual([['lambda:InvokeFunction', { Ref: workerAliasId }]]);
      expect(environmentOf(name).WORKER_FUNCTION_NAME).toEqual({ Ref: workerAliasId });
    } else {
      expect(invokes).toEqual([]);
      expect(environmentOf(name).WORKER_FUNCTION_NAME).toBeUndefined();
    }
  });

  it('articles and images invoke the worker; auth, admin and settings do not', () => {
    expect(grantsOf('articles', 'lambda')).toHaveLength(1);
    expect(grantsOf('images', 'lambda')).toHaveLength(1);
    for (const group of ['auth', 'admin', 'settings']) expect(grantsOf(group, 'lambda')).toEqual([]);
  });

  it.each(names())(
    "%s: EventBridge Scheduler: manages (or, retrying runs, only creates) the group's schedules and passes the scheduler role exactly when it schedules",
    (name) => {
      const scheduler = sorted(grantsOf(name, 'scheduler'));
      const passRole = policyOf(name).filter((s) => asArray(s.Action).includes('iam:PassRole'));
      const variables = environmentOf(name);
      const { managesSchedules, retriesRuns } = EXPECTED[name]!;
      if (managesSchedules || retriesRuns) {
        const actions = managesSchedules
          ? ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'scheduler:UpdateSchedule']
          : ['scheduler:CreateSchedule'];
        expect(scheduler).toEqual(sorted(actions.map((a) => [a, schedulesArn()])));
        expect(passRole).toEqual([
          {
            Effect: 'Allow',
            Action: 'iam:PassRole',
            Resource: { 'Fn::GetAtt': [logicalId(stack, stack.schedules.role), 'Arn'] },
            Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
          },
        ]);
        // All four, or the code falls back to in-process timers; the worker, the target itself, reads its own ARN
        // from its invocation (naming it in its own environment would be a circular dependency).
        expect(variables).toMatchObject({
          SCHEDULE_GROUP_NAME: stack.schedules.group.scheduleGroupName,
          SCHEDULER_ROLE_ARN: { 'Fn::GetAtt': [logicalId(stack, stack.schedules.role), 'Arn'] },
          SCHEDULE_DLQ_ARN: { 'Fn::GetAtt': [logicalId(stack, stack.bulkJobs.deadLetterQueue), 'Arn'] },
        });
        if (name === WORKER_ENTRY_NAME) expect(variables.SCHEDULE_TARGET_ARN).toBeUndefined();
        else expect(variables.SCHEDULE_TARGET_ARN).toEqual({ Ref: workerAliasId });
      } else {
        expect(scheduler).toEqual([]);
        expect(passRole).toEqual([]);
        for (const variable of SCHEDULE_ENV) expect(variables[variable], variable).toBeUndefined();
      }
    },
  );

  it('only the schedule function manages schedules, and the worker creates its retries; no policy but theirs passes a role', () => {
    expect(names().filter((n) => EXPECTED[n]!.managesSchedules)).toEqual(['schedule']);
    expect(names().filter((n) => EXPECTED[n]!.retriesRuns)).toEqual([WORKER_ENTRY_NAME]);
    const schedulingRoleIds = [logicalId(stack, roleOf('schedule')), logicalId(stack, roleOf(WORKER_ENTRY_NAME))];
    for (const policy of Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>)) {
      const mine = (policy.Properties.Roles as { Ref: string }[]).some((r) => schedulingRoleIds.includes(r.Ref));
      for (const statement of policy.Properties.PolicyDocument.Statement as Statement[]) {
        for (const action of asArray(statement.Action)) {
          if (!mine) expect(action).not.toMatch(/^(scheduler:|iam:)/);
        }
      }
    }
  });

  const imagesBucketArn = () => ({ 'Fn::GetAtt': [imagesBucketId, 'Arn'] });
  /** Readers may list the images' prefix: S3 then answers a missing image 404, not 403 (s3-object-store.ts). */
  const listImages = () => ({
    Effect: 'Allow',
    Action: 's3:ListBucket',
    Resource: imagesBucketArn(),
    Condition: { StringLike: { 's3:prefix': [`${IMAGES_KEY_PREFIX}*`] } },
  });

  const listUploads = () => ({
    ...listImages(),
    Condition: { StringLike: { 's3:prefix': [`${UPLOADS_KEY_PREFIX}*`] } },
  });

  it.each(names())('%s: S3: only what it needs of the images, under users/ (and uploads/) only', (name) => {
    const reads = EXPECTED[name]!.images.includes('s3:GetObject');
    const uploads = Boolean(EXPECTED[name]!.uploads);
    expect(sorted(grantsOf(name, 's3'))).toEqual(
      sorted([
        ...EXPECTED[name]!.images.map((a) => [a, imagesObjectsArn()] as [string, unknown]),
        ...(reads ? [['s3:ListBucket', imagesBucketArn()] as [string, unknown]] : []),
        ...(uploads
          ? [
              ...['s3:PutObject', 's3:GetObject', 's3:DeleteObject'].map(
                (a) => [a, uploadsObjectsArn()] as [string, unknown],
              ),
              ['s3:ListBucket', imagesBucketArn()] as [string, unknown],
            ]
          : []),
      ]),
    );
    // Listing only under users/ (and uploads/) (the s3:prefix condition), and only for the functions that read them.
    expect(policyOf(name).filter((st) => asArray(st.Action).includes('s3:ListBucket'))).toEqual([
      ...(reads ? [listImages()] : []),
      ...(uploads ? [listUploads()] : []),
    ]);
    const needsBucket =
      EXPECTED[name]!.images.length > 0 || EXPECTED[name]!.invokesWorker || Boolean(EXPECTED[name]!.sendsBulkJobs);
    expect(environmentOf(name).IMAGES_BUCKET).toEqual(needsBucket ? { Ref: imagesBucketId } : undefined);
  });

  it('IMAGES_BUCKET goes to the job starters, the publishers and the worker; WORKER_FUNCTION_NAME to the job starters', () => {
    const withVariable = (variable: string) =>
      names()
        .filter((n) => environmentOf(n)[variable] !== undefined)
        .sort();
    expect(withVariable('IMAGES_BUCKET')).toEqual([
      'approvals',
      'articles',
      'channels',
      'images',
      'linkedin',
      'sheets',
      'wordpress',
      'worker',
    ]);
    expect(withVariable('WORKER_FUNCTION_NAME')).toEqual(['articles', 'images']);
    expect(withVariable('BULK_JOB_QUEUE_URL')).toEqual(['sheets']);
  });

  const bulkQueueId = () => logicalId(stack, stack.bulkJobs.queue);
  const bulkQueueArn = () => ({ 'Fn::GetAtt': [bulkQueueId(), 'Arn'] });

  it.each(names())(
    '%s: SQS: sends to the bulk job queue exactly when it hands over bulk jobs; only the worker consumes it',
    (name) => {
      const sqs = sorted(grantsOf(name, 'sqs'));
      if (EXPECTED[name]!.sendsBulkJobs) {
        expect(sqs).toEqual(
          sorted(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'].map((a) => [a, bulkQueueArn()])),
        );
        expect(environmentOf(name).BULK_JOB_QUEUE_URL).toEqual({ Ref: bulkQueueId() });
      } else if (name === WORKER_ENTRY_NAME) {
        // The event source mapping's consumer permissions, on this queue only; it never sends to it. Its
        // failed async invocations go to the job failure queue (the on-failure destination, sent as the worker).
        const failureQueueArn = { 'Fn::GetAtt': [logicalId(stack, stack.bulkJobs.deadLetterQueue), 'Arn'] };
        expect(sqs).toEqual(
          sorted([
            ...[
              'sqs:ChangeMessageVisibility',
              'sqs:DeleteMessage',
              'sqs:GetQueueAttributes',
              'sqs:GetQueueUrl',
              'sqs:ReceiveMessage',
            ].map((a): [string, unknown] => [a, bulkQueueArn()]),
            ...['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'].map((a): [string, unknown] => [
              a,
              failureQueueArn,
            ]),
            // The domain events' failure queue: the table stream's on-failure destination (event-delivery.ts).
            ...['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'].map((a): [string, unknown] => [
              a,
              { 'Fn::GetAtt': [logicalId(stack, stack.eventDelivery.deadLetterQueue), 'Arn'] },
            ]),
          ]),
        );
        expect(environmentOf(name).BULK_JOB_QUEUE_URL).toBeUndefined();
      } else {
        expect(sqs).toEqual([]);
        expect(environmentOf(name).BULK_JOB_QUEUE_URL).toBeUndefined();
      }
    },
  );

  it('only the sheets function may send to the bulk job queue, in the whole stack; only SQS, the worker (its failed invocations) and the Scheduler (runs it could not deliver) to its dead-letter queue', () => {
    const senders: string[] = [];
    const failureSenders: string[] = [];
    for (const policy of Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>)) {
      for (const statement of policy.Properties.PolicyDocument.Statement as Statement[]) {
        const text = JSON.stringify(statement.Resource);
        const roles = (policy.Properties.Roles as { Ref: string }[]).map((r) => r.Ref);
        if (asArray(statement.Action).includes('sqs:SendMessage') && text.includes(`"${bulkQueueId()}"`))
          senders.push(...roles);
        if (text.includes(`"${logicalId(stack, stack.bulkJobs.deadLetterQueue)}"`)) failureSenders.push(...roles);
      }
    }
    expect(senders).toEqual([logicalId(stack, roleOf('sheets'))]);
    expect([...new Set(failureSenders)].sort()).toEqual(
      [logicalId(stack, stack.worker.role), logicalId(stack, stack.schedules.role)].sort(),
    );
  });

  it.each(names())(
    '%s: nothing broad (no wildcard action, no wildcard resource but the name prefixes, no managed policy)',
    (name) => {
      const allowedPatterns = [
        JSON.stringify(userSecretsArn()),
        JSON.stringify(oldUserSecretsArn()),
        JSON.stringify(imagesObjectsArn()),
        JSON.stringify(uploadsObjectsArn()),
      ];
      if (EXPECTED[name]!.managesSchedules || EXPECTED[name]!.retriesRuns)
        allowedPatterns.push(JSON.stringify(schedulesArn()));
      // Nothing is granted on * (no X-Ray either: tracing is off, app-function.ts), but the worker's
      // dynamodb:ListStreams, which has no resource to name (event-delivery.ts; its reads name the stream).
      expect(
        policyOf(name).filter(
          (s) => s.Resource === '*' && !(name === WORKER_ENTRY_NAME && s.Action === 'dynamodb:ListStreams'),
        ),
      ).toEqual([]);
      for (const statement of policyOf(name).filter((s) => s.Resource !== '*')) {
        expect(statement.Effect).toBe('Allow');
        // The conditions: PassRole to EventBridge Scheduler only, listing the images' prefix only (checked above).
        if (asArray(statement.Action).includes('iam:PassRole') || asArray(statement.Action).includes('s3:ListBucket'))
          expect(statement.Condition).toBeDefined();
        else expect(statement.Condition).toBeUndefined();
        for (const action of asArray(statement.Action)) expect(action).not.toContain('*');
        for (const resource of asArray(statement.Resource)) {
          const text = JSON.stringify(resource);
          if (!allowedPatterns.includes(text)) expect(text).not.toMatch(/\*/);
        }
        expect(asArray(statement.Action)).not.toContain('dynamodb:Scan');
      }
      const role = template.findResources('AWS::IAM::Role')[logicalId(stack, roleOf(name))] as Resource;
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
        { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } },
      ]);
    },
  );

  it.each(names())(
    "%s: events:PutEvents on the stack's bus only (with EVENT_BUS_NAME), exactly when it emits domain events",
    (name) => {
      const busArn = stack.resolve(stack.eventBus.eventBusArn) as unknown;
      const expected = EXPECTED[name]!.putsEvents ? [['events:PutEvents', busArn]] : [];
      expect(grantsOf(name, 'events'), name).toEqual(expected);
      expect(environmentOf(name).EVENT_BUS_NAME, name).toEqual(
        EXPECTED[name]!.putsEvents ? stack.resolve(stack.eventBus.eventBusName) : undefined,
      );
    },
  );

  it('grants no wildcard action anywhere in the stack (without the SPA upload)', () => {
    for (const policy of Object.values(template.findResources('AWS::IAM::Policy') as Record<string, Resource>)) {
      for (const statement of policy.Properties.PolicyDocument.Statement as Statement[]) {
        for (const action of asArray(statement.Action)) expect(action).not.toContain('*');
      }
    }
  });
});
