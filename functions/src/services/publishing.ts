import { createObjectStore } from '../adapters/aws/s3-object-store.js';
import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { HttpLinkedInPublisher } from '../adapters/integrations/linkedin-publish.js';
import { HttpWebhookDelivery } from '../adapters/integrations/webhook.js';
import { HttpWordPressPublisher } from '../adapters/integrations/wordpress-publish.js';
import { deps, onResetDeps } from '../deps.js';
import { PublishingService } from '../domain/publishing.js';
import { imagePreviewPath } from '../http/article-view.js';
import { logger } from '../logger.js';
import { businessEvents } from '../metrics.js';
import { integrations } from './integrations.js';

function build(): PublishingService {
  const { config, db, settings } = deps();
  return new PublishingService({
    articles: new DynamoArticleStore(db, config.tableName),
    objects: createObjectStore(config),
    settings,
    wordpress: integrations().wordpress,
    wordpressPublisher: new HttpWordPressPublisher({ allowPrivateUrls: config.allowPrivateUrls }),
    linkedinPublisher: new HttpLinkedInPublisher({ apiUrl: config.linkedinApiUrl }),
    webhooks: new HttpWebhookDelivery({ allowPrivateUrls: config.allowPrivateUrls }),
    imageUrl: imagePreviewPath,
    onWebhookResult: (r) => (r.ok ? logger.info('webhook delivered', { status: r.status }) : logger.warn('webhook failed', { status: r.status, error: r.error })),
    events: businessEvents,
  });
}

let current: PublishingService | undefined;
export const publishing = (): PublishingService => (current ??= build());
onResetDeps(() => {
  current = undefined;
});
