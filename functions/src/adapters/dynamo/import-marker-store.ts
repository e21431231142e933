import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ImportMarker, ImportMarkers } from '../../domain/sheets-import.js';
import { conditionHeld } from './client.js';

/** USER#<userId> / IMPORT#<key>: one item per imported spreadsheet row (see domain/sheets-import.ts). */
const key = (userId: string, importKey: string) => ({ PK: `USER#${userId}`, SK: `IMPORT#${importKey}` });

export class DynamoImportMarkers implements ImportMarkers {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async claim(userId: string, importKey: string, marker: ImportMarker): Promise<boolean> {
    return conditionHeld(
      this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...key(userId, importKey), type: 'import', ...marker },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      ),
    );
  }

  async release(userId: string, importKey: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: key(userId, importKey) }));
  }
}
