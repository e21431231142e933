import { createObjectStore } from '../adapters/aws/s3-object-store.js';
import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { HttpWordPressPublisher } from '../adapters/integrations/wordpress-publish.js';
import { deps } from './deps.js';
import { PublishingService } from '../domain/publishing.js';
import { imagePreviewPath } from '../http/article-view.js';
import { businessEvents } from '../metrics.js';
import { integrations } from './integrations.js';
import { lazy } from './lazy.js';
import { linkedInPublisher } from './linkedin-publisher.js';

function build(): PublishingService {
  const { config, db, settings } = deps();
  return new PublishingService({
    articles: new DynamoArticleStore(db, config.tableName),
    objects: createObjectStore(config),
    settings,
    wordpress: integrations().wordpress,
    wordpressPublisher: new HttpWordPressPublisher({ allowPrivateUrls: config.allowPrivateUrls }),
    linkedinPublisher: linkedInPublisher(config),
    imageUrl: imagePreviewPath,
    events: businessEvents,
  });
}

/** Publishing to WordPress and LinkedIn (and the posting mode), built on first use. */
export const publishing = lazy(build);
