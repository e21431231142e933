import { DynamoActivityStore } from '../adapters/dynamo/activity-store.js';
import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { DynamoCommentStore } from '../adapters/dynamo/comment-store.js';
import { CommentService } from '../domain/comments.js';
import { displayName } from '../domain/workspaces.js';
import { deps } from './deps.js';
import { lazy } from './lazy.js';

function build(): CommentService {
  const { config, db, users } = deps();
  return new CommentService({
    articles: new DynamoArticleStore(db, config.tableName),
    comments: new DynamoCommentStore(db, config.tableName),
    activity: new DynamoActivityStore(db, config.tableName),
    nameOf: async (userId) => {
      const user = await users.get(userId);
      return user && displayName(user);
    },
  });
}

/** Comments on articles' versions and their activity (domain/comments.ts), built on first use. */
export const comments = lazy(build);
