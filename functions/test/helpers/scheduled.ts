import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Article, Platform } from '@app/shared';
import { parseMime, type ParsedMime } from '../fakes/mime.js';
import { FAKE_WP_EDITOR, type FakeWordPress } from '../fakes/wordpress.js';
import { publishableArticle, waitUntil, type Client, type TestApp } from './app.js';

/**
 * The set-up the scheduled-publishing API tests share (bundle-api, scheduled-channels-api): connect WordPress,
 * schedule a publishable article (app.ts, publishableArticle) and wait for the scheduled run's approval e-mail.
 */

/** Connects the fake WordPress site as its editor; throws when the app refuses. */
export async function connectWordPress(client: Client, wp: FakeWordPress): Promise<void> {
  const saved = await client.call('/api/wordpress/credentials', {
    body: { siteUrl: wp.url, username: FAKE_WP_EDITOR.username, appPassword: FAKE_WP_EDITOR.appPassword },
  });
  if (saved.status !== 200) throw new Error(`Connecting WordPress failed: ${JSON.stringify(saved.json)}`);
}

/** The newest e-mail of the app's outbox about this title (its subject ends with it), once one is there. */
export async function approvalMail(app: Pick<TestApp, 'dataDir'>, title: string): Promise<ParsedMime> {
  const dir = join(app.dataDir, 'outbox');
  const mail = await waitUntil(
    async () => {
      let files: string[];
      try {
        files = readdirSync(dir);
      } catch {
        return undefined;
      }
      return files
        .filter((f) => f.endsWith('.eml'))
        .sort()
        .map((f) => parseMime(readFileSync(join(dir, f), 'utf8')))
        .filter((m) => m.subject?.endsWith(`: ${title}`))
        .at(-1);
    },
    (found) => found !== undefined,
    `the approval e-mail of ${title}`,
  );
  return mail!;
}

/**
 * A publishable article (without an image) whose version is scheduled half a second from now (with `bundle`: the
 * blog-first bundle), the approval e-mail its scheduled run sent, and that e-mail's link's token.
 */
export async function scheduledForApproval(
  client: Client,
  app: Pick<TestApp, 'dataDir'>,
  title: string,
  brief: { topic: string; keyword: string },
  options: { platform?: Platform; bundle?: true } = {},
): Promise<{ id: string; token: string; mail: ParsedMime; article: Article }> {
  const id = await publishableArticle(client, title, brief, false);
  const scheduled = await client.call(`/api/articles/${id}/schedule`, {
    method: 'PUT',
    body: {
      platform: options.platform ?? 'blog',
      datetime: new Date(Date.now() + 500).toISOString(),
      ...(options.bundle ? { bundle: true } : {}),
    },
  });
  if (scheduled.status !== 200) throw new Error(`Scheduling failed: ${JSON.stringify(scheduled.json)}`);
  const mail = await approvalMail(app, title);
  const link = /\/approve\?token=([A-Za-z0-9._%-]+)/.exec(mail.text ?? '');
  if (!link) throw new Error(`The approval e-mail of ${title} has no approval link`);
  return { id, token: decodeURIComponent(link[1]!), mail, article: scheduled.json.article as Article };
}
