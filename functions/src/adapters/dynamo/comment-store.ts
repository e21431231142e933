import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CommentRecord, CommentStore } from '../../domain/comments.js';
import { conditionHeld, queryAll } from './client.js';

const COMMENT_PREFIX = 'COMMENT#';
/** In the workspace's partition, by article then time (ids are time-ordered): one Query reads a thread. */
export const commentKey = (userId: string, articleId: string, id: string) => ({
  PK: `USER#${userId}`,
  SK: `${COMMENT_PREFIX}${articleId}#${id}`,
});

type Item = CommentRecord & { PK: string; SK: string; type: 'comment' };
const fromItem = ({ PK: _p, SK: _s, type: _t, ...comment }: Item): CommentRecord => comment;

export class DynamoCommentStore implements CommentStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async put(comment: CommentRecord): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...commentKey(comment.userId, comment.articleId, comment.id), type: 'comment', ...comment },
        ConditionExpression: 'attribute_not_exists(PK)',
      }),
    );
  }

  async list(userId: string, articleId: string): Promise<CommentRecord[]> {
    const items = await queryAll<Item>(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':prefix': `${COMMENT_PREFIX}${articleId}#` },
      ConsistentRead: true,
    });
    return items.map(fromItem);
  }

  async get(userId: string, articleId: string, id: string): Promise<CommentRecord | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: commentKey(userId, articleId, id), ConsistentRead: true }),
    );
    return out.Item ? fromItem(out.Item as Item) : undefined;
  }

  delete(userId: string, articleId: string, id: string, authorId: string): Promise<boolean> {
    return conditionHeld(
      this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: commentKey(userId, articleId, id),
          ConditionExpression: 'authorId = :author',
          ExpressionAttributeValues: { ':author': authorId },
        }),
      ),
    );
  }
}
