import { createObjectStore } from '../adapters/aws/s3-object-store.js';
import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { channelIds, loadChannel } from '../channels/registry.js';
import { deps } from './deps.js';
import { PublishingService } from '../domain/publishing.js';
import { imagePreviewPath } from '../http/article-view.js';
import { businessEvents } from '../business-events.js';
import { lazy } from './lazy.js';
import { settingService } from './settings.js';

function build(): PublishingService {
  const { config, db } = deps();
  const settings = settingService();
  return new PublishingService({
    articles: new DynamoArticleStore(db, config.tableName),
    objects: createObjectStore(config),
    // Each channel's module (its publisher) is parsed on its first publish, not at every cold start.
    channel: (id) => loadChannel(id, { config, settings }),
    channelIds,
    imageUrl: imagePreviewPath,
    events: businessEvents,
  });
}

/** Publishing to the channels (and LinkedIn's posting mode), built on first use. */
export const publishing = lazy(build);
