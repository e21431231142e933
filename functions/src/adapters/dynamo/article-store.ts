import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Platform } from '@app/shared';
import type { ArticleRecord } from '../../domain/articles.js';
import type { ArticleStore, NotifyClaim, PublishAttempt } from '../../domain/ports.js';
import { queryAll, conditionHeld, ifConditionHeld } from './client.js';
import { userKey } from './user-store.js';

const key = (userId: string, id: string) => ({ PK: `USER#${userId}`, SK: `ARTICLE#${id}` });
type Item = ArticleRecord & { PK: string; SK: string; type: 'article' };
const fromItem = ({ PK: _p, SK: _s, type: _t, ...article }: Item): ArticleRecord => article;

export class DynamoArticleStore implements ArticleStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async put(article: ArticleRecord): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...key(article.userId, article.id), type: 'article', ...article },
      }),
    );
    await this.changed(article.userId);
  }

  /**
   * Moves the owner's `articlesVersion` (UserRecord), after the write and never before: a request
   * whose session read sees the new version lists the new data. List answers are reused while it
   * stays (http/list-cache.ts). Writes that change nothing the API shows (publish claims, notified
   * and approved marks) leave it.
   */
  private async changed(userId: string): Promise<void> {
    // The condition fails only when there is no such user: then nobody lists these articles.
    await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: userKey(userId),
          UpdateExpression: 'ADD articlesVersion :one',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':one': 1 },
        }),
      ),
    );
  }

  /** Creates an empty map attribute on an existing article that has none yet, so a nested key can be set in it. */
  private async ensureMap(userId: string, id: string, attribute: string): Promise<void> {
    await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: 'SET #m = :empty',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(#m)',
          ExpressionAttributeNames: { '#m': attribute },
          ExpressionAttributeValues: { ':empty': {} },
        }),
      ),
    );
  }

  async get(userId: string, id: string): Promise<ArticleRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: key(userId, id), ConsistentRead: true }),
    );
    return out.Item ? fromItem(out.Item as Item) : undefined;
  }

  async list(userId: string): Promise<ArticleRecord[]> {
    const items = await queryAll<Item>(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':prefix': 'ARTICLE#' },
      ScanIndexForward: false,
    });
    return items.map(fromItem);
  }

  async update(
    userId: string,
    id: string,
    changes: Record<string, unknown>,
    options: { onlyIfEmpty?: Platform[]; onlyIfImageJob?: string } = {},
  ): Promise<ArticleRecord | undefined> {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const sets = Object.entries(changes).map(([path, value], i) => {
      const parts = path.split('.').map((part, j) => {
        names[`#p${i}_${j}`] = part;
        return `#p${i}_${j}`;
      });
      values[`:v${i}`] = value;
      return `${parts.join('.')} = :v${i}`;
    });
    const conditions = ['attribute_exists(PK)'];
    for (const platform of options.onlyIfEmpty ?? []) {
      names[`#c_${platform}`] = platform;
      names['#c_content'] = 'content';
      values[':empty'] = '';
      conditions.push(`#c_${platform}.#c_content = :empty`);
    }
    if (options.onlyIfImageJob !== undefined) {
      names['#c_imageJob'] = 'imageJob';
      names['#c_requestedAt'] = 'requestedAt';
      values[':c_requestedAt'] = options.onlyIfImageJob;
      conditions.push('#c_imageJob.#c_requestedAt = :c_requestedAt');
    }
    const out = await ifConditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    if (!out) return undefined;
    await this.changed(userId);
    return fromItem(out.Attributes as Item);
  }

  async claimPublish(
    userId: string,
    id: string,
    platform: Platform,
    claimId: string,
    now: string,
    staleBefore: string,
  ): Promise<ArticleRecord | undefined> {
    // Articles saved before claims existed have no map to hold one yet.
    await this.ensureMap(userId, id, 'publishClaims');
    const out = await ifConditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: 'SET #claims.#p = :claim',
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#claims.#p) OR #claims.#p.#at < :stale)',
          ExpressionAttributeNames: { '#claims': 'publishClaims', '#p': platform, '#at': 'at' },
          ExpressionAttributeValues: { ':claim': { id: claimId, at: now }, ':stale': staleBefore },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return out && fromItem(out.Attributes as Item);
  }

  async releasePublish(userId: string, id: string, platform: Platform, claimId: string): Promise<void> {
    await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: 'REMOVE #claims.#p',
          ConditionExpression: '#claims.#p.#id = :id',
          ExpressionAttributeNames: { '#claims': 'publishClaims', '#p': platform, '#id': 'id' },
          ExpressionAttributeValues: { ':id': claimId },
        }),
      ),
    );
  }

  async notePublishAttempt(
    userId: string,
    id: string,
    platform: Platform,
    claimId: string,
    attempt: PublishAttempt,
  ): Promise<boolean> {
    await this.ensureMap(userId, id, 'publishAttempts');
    return conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: 'SET #attempts.#p = :attempt',
          // Only while this publish holds the claim: one whose claim was taken over must not send.
          ConditionExpression: '#claims.#p.#id = :claim',
          ExpressionAttributeNames: {
            '#attempts': 'publishAttempts',
            '#claims': 'publishClaims',
            '#p': platform,
            '#id': 'id',
          },
          ExpressionAttributeValues: { ':attempt': attempt, ':claim': claimId },
        }),
      ),
    );
  }

  async forgetPublishAttempt(userId: string, id: string, platform: Platform): Promise<void> {
    await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: 'REMOVE #attempts.#p',
          ConditionExpression: 'attribute_exists(#attempts)',
          ExpressionAttributeNames: { '#attempts': 'publishAttempts', '#p': platform },
        }),
      ),
    );
  }

  async markOnce(
    userId: string,
    id: string,
    field: 'notified' | 'approved',
    platform: Platform,
    value: string,
  ): Promise<boolean> {
    await this.ensureMap(userId, id, field);
    return conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: 'SET #f.#p = :v',
          ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(#f.#p) OR #f.#p <> :v)',
          ExpressionAttributeNames: { '#f': field, '#p': platform },
          ExpressionAttributeValues: { ':v': value },
        }),
      ),
    );
  }

  async unmark(userId: string, id: string, field: 'notified' | 'approved', platform: Platform): Promise<void> {
    await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: 'REMOVE #f.#p',
          ConditionExpression: 'attribute_exists(#f)',
          ExpressionAttributeNames: { '#f': field, '#p': platform },
        }),
      ),
    );
  }

  async claimNotify(
    userId: string,
    id: string,
    platform: Platform,
    scheduledFor: string,
    now: string,
    leaseUntil: string,
  ): Promise<NotifyClaim> {
    await this.ensureMap(userId, id, 'notifyLeases');
    const claimed = await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: 'SET #leases.#p = :lease',
          ConditionExpression:
            'attribute_exists(PK) AND (attribute_not_exists(#notified.#p) OR #notified.#p <> :for) AND ' +
            '(attribute_not_exists(#leases.#p) OR #leases.#p.#until < :now OR #leases.#p.#for <> :for)',
          ExpressionAttributeNames: {
            '#leases': 'notifyLeases',
            '#notified': 'notified',
            '#p': platform,
            '#until': 'until',
            '#for': 'for',
          },
          ExpressionAttributeValues: {
            ':lease': { for: scheduledFor, until: leaseUntil },
            ':for': scheduledFor,
            ':now': now,
          },
        }),
      ),
    );
    if (claimed) return 'claimed';
    const article = (await this.get(userId, id)) as
      (ArticleRecord & { notified?: Partial<Record<Platform, string>> }) | undefined;
    return article?.notified?.[platform] === scheduledFor ? 'done' : 'held';
  }

  async finishNotify(userId: string, id: string, platform: Platform, scheduledFor: string): Promise<void> {
    await this.ensureMap(userId, id, 'notified');
    await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: 'SET #notified.#p = :for REMOVE #leases.#p',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeNames: { '#notified': 'notified', '#leases': 'notifyLeases', '#p': platform },
          ExpressionAttributeValues: { ':for': scheduledFor },
        }),
      ),
    );
  }

  async releaseNotify(userId: string, id: string, platform: Platform, scheduledFor: string): Promise<void> {
    await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, id),
          UpdateExpression: 'REMOVE #leases.#p',
          // Only our own lease: a newer run's lease stays.
          ConditionExpression: '#leases.#p.#for = :for',
          ExpressionAttributeNames: { '#leases': 'notifyLeases', '#p': platform, '#for': 'for' },
          ExpressionAttributeValues: { ':for': scheduledFor },
        }),
      ),
    );
  }
}
