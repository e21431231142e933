/**
 * The content step's previews (docs/product.md, Create): typing in an editor changes the WordPress post and the
 * LinkedIn card beside it at once; the card folds behind "…see more"; the images are the 1200×800 and 1200×627
 * ones publishing sends; side by side at 1366 px and stacked at 390 px; axe finds nothing in either theme.
 */
import { describe, expect, it } from 'vitest';
import {
  ADA,
  browserAvailable,
  callApi,
  createArticleWithDrafts,
  registerOnDashboard,
  snap,
  withAppAndBrowser,
} from './harness.js';
import { PHONE, pageScrollWidth, settle, showTheme } from './viewport.js';
import { axeViolations } from './axe.js';

const hasBrowser = browserAvailable();

const LINKEDIN = [
  'Three lessons from a year of serverless (with numbers)',
  'One: right-size memory before anything else.',
  'Two: watch cold starts where users wait.',
  'Three: budgets and alarms beat surprises. #Serverless #AWS',
].join('\n');

describe.skipIf(!hasBrowser)('content previews journey (Chromium)', () => {
  const journey = withAppAndBrowser();

  it('edit the text → the previews follow; see more expands; side by side when wide, stacked on a phone; both themes', async () => {
    const context = await journey.browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    await registerOnDashboard(page, journey.app, ADA);
    const id = await createArticleWithDrafts(page, {
      title: 'Serverless cost control',
      topic: 'Keeping AWS Lambda bills predictable',
      keyword: 'serverless costs',
      details: 'Right-size memory. Watch cold starts.',
      imageDescription: 'A calm dashboard with falling cost lines',
    });
    expect((await callApi(page, `/api/image/generate/${id}`, { description: 'Falling cost lines' })).status).toBe(202);
    await expect
      .poll(async () => (await callApi(page, `/api/articles/${id}`)).json.article.image?.generatedAt, {
        timeout: 30_000,
      })
      .toBeTruthy();

    await page.goto(`${journey.app.url}/create?articleId=${id}`);
    const modal = page.getByRole('dialog', { name: 'Generated Content' });
    const post = modal.getByRole('article', { name: 'WordPress post' });
    await post.waitFor();
    // The post's title, as the theme shows it above the content (the draft starts with a heading of its own).
    await expect.poll(() => post.locator('.wp-preview__title').textContent()).toBe('Serverless cost control');

    // The blog editor's text, unsaved, is the post's body at once.
    const blog = modal.getByLabel('Blog content');
    await blog.fill('# Cost control\n\nRight-size **memory** first.\n\n<script>document.title = "owned"</script>');
    await post.getByRole('heading', { level: 1, name: 'Cost control', exact: true }).waitFor();
    expect(await post.locator('strong').textContent()).toBe('memory');
    expect(await post.locator('script').count()).toBe(0);
    const featured = post.getByRole('img', { name: /^Featured image/ });
    await expect
      .poll(() => featured.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]))
      .toEqual([1200, 800]);

    // The LinkedIn card: the text up to the fold, a "…see more" button, hashtags as LinkedIn links them.
    const card = modal.getByRole('article', { name: 'LinkedIn post' });
    await modal.getByLabel('LinkedIn content').fill(LINKEDIN);
    const more = card.getByRole('button', { name: '…see more' });
    await more.waitFor();
    const text = card.locator('.li-card__text');
    expect(await text.textContent()).toBe(`${LINKEDIN.split('\n').slice(0, 3).join('\n')}…see more`);
    expect(await card.locator('.li-card__hashtag').count()).toBe(0);
    await card.getByText('LinkedIn member').waitFor();
    const cardImage = card.getByRole('img', { name: /^Post image/ });
    await expect
      .poll(() => cardImage.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]))
      .toEqual([1200, 627]);
    await settle(page);
    await snap(page, 'previews-1366-light');

    await more.click();
    expect(await card.getByRole('button', { name: 'see less' }).getAttribute('aria-expanded')).toBe('true');
    expect(await card.locator('.li-card__hashtag').allTextContents()).toEqual(['#Serverless', '#AWS']);

    // Side by side: each preview to the right of its editor, level with it.
    const blogEditor = modal.getByRole('region', { name: 'Blog Article' });
    const [editorBox, postBox] = [(await blogEditor.boundingBox())!, (await post.boundingBox())!];
    expect(postBox.x).toBeGreaterThanOrEqual(editorBox.x + editorBox.width);
    expect(Math.abs(postBox.y - editorBox.y)).toBeLessThan(60);

    const audit = async (where: string) => {
      const violations = await axeViolations(page, { include: '[role="dialog"]' });
      expect(violations.map((v) => `${where}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      );
    };
    await audit('1366 light');
    await showTheme(page, 'dark');
    await audit('1366 dark');
    await snap(page, 'previews-1366-dark');

    // Stacked on a phone: the preview under its editor, nothing wider than the screen.
    await page.setViewportSize(PHONE);
    await settle(page);
    const [phoneEditor, phonePost] = [(await blogEditor.boundingBox())!, (await post.boundingBox())!];
    expect(phonePost.y).toBeGreaterThanOrEqual(phoneEditor.y + phoneEditor.height);
    expect(phonePost.x + phonePost.width).toBeLessThanOrEqual(PHONE.width);
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await post.scrollIntoViewIfNeeded();
    await snap(page, 'previews-390-dark');
    await card.scrollIntoViewIfNeeded();
    await snap(page, 'previews-390-dark-card');
    await showTheme(page, 'light');
    await audit('390 light');
    await snap(page, 'previews-390-light-card');
    await post.scrollIntoViewIfNeeded();
    await snap(page, 'previews-390-light');
    await context.close();
  });
});
