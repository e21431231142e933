import { createObjectStore } from '../adapters/aws/s3-object-store.js';
import { DynamoArticleStore } from '../adapters/dynamo/article-store.js';
import { SharpImageProcessor } from '../adapters/images/sharp-image-processor.js';
import { ImageService } from '../domain/images.js';
import { deps } from './deps.js';
import { jobLimits } from './job-limits.js';
import { lazy } from './lazy.js';

function build(): ImageService {
  const { config, db } = deps();
  const objects = createObjectStore(config);
  return new ImageService({
    articles: new DynamoArticleStore(db, config.tableName),
    objects,
    signer: objects,
    images: new SharpImageProcessor(),
    limits: jobLimits(),
  });
}

/** Uploads, focal points and the kept originals (domain/images.ts), built on first use. */
export const imageServices = lazy(build);
