import type { WordPressCredentialsInput } from '@app/shared';
import { IntegrationMessages } from '@app/shared';
import type { RouteHandler, SignedInRequest } from '../middleware/api.js';
import { toApiArticle } from './article-view.js';
import { integrations } from '../wiring/integrations.js';
import { publishing } from '../wiring/publishing.js';
import { json } from './response.js';

type Body = Required<Omit<WordPressCredentialsInput, 'siteId' | 'skipPasswordUpdate'>> & Pick<WordPressCredentialsInput, 'skipPasswordUpdate'>;

async function status({ user }: SignedInRequest) {
  return json(200, await integrations().wordpress.status(user.id));
}

/** A failed check is an answer, not an error: {success:false, error, message} with the reason. */
async function testConnection({ user, body }: SignedInRequest<Body>) {
  const check = await integrations().wordpress.test(user.id, body);
  if (!check.ok) return json(200, { success: false, error: check.message, message: check.message, code: check.code });
  return json(200, { success: true, user: { name: check.user.name }, message: `Connected to ${check.siteUrl} as ${check.user.name}` });
}

async function saveCredentials({ user, body }: SignedInRequest<Body>) {
  const check = await integrations().wordpress.save(user.id, body);
  return json(200, { success: true, user: { name: check.user.name }, message: IntegrationMessages.wordpressSaved, siteUrl: check.siteUrl });
}

async function publish({ user, params }: SignedInRequest<unknown, unknown, { id: string }>) {
  const { link, article } = await publishing().publishWordPress(user.id, params.id);
  return json(200, { success: true, post: { link }, article: toApiArticle(article), message: 'Successfully published to WordPress!' });
}

export const handlers: Record<string, RouteHandler> = {
  'wordpress.status': status,
  'wordpress.testConnection': testConnection,
  'wordpress.saveCredentials': saveCredentials,
  'wordpress.publish': publish,
};
