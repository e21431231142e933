import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADA,
  browserAvailable,
  launchBrowser,
  registerOnDashboard,
  removeData,
  snap,
  startApp,
  type RunningApp,
} from './harness.js';

const hasBrowser = browserAvailable();

describe.skipIf(!hasBrowser)('create journey (Chromium, offline drafting)', () => {
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp(undefined, { OPENAI_API_KEY: '' }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (app) removeData(app);
  });

  it('draft survives a reload → create → edit both versions → generate an image → /schedule', async () => {
    const page = await browser.newPage();
    await registerOnDashboard(page, app, ADA);

    await page.goto(`${app.url}/create`);
    const submit = page.getByRole('button', { name: 'Create & Schedule' });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('Title', { exact: true }).fill('Serverless cost control');
    await page.getByLabel('Topic', { exact: true }).fill('Keeping AWS Lambda bills predictable');
    await page.getByLabel('Keyword', { exact: true }).fill('serverless costs');
    await page
      .getByLabel('Details', { exact: true })
      .fill('Right-size memory. Watch cold starts. Use budgets and alarms.');
    await page.getByLabel('Image Description', { exact: true }).fill('A calm dashboard with falling cost lines');
    await page.reload();
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Serverless cost control');
    expect(await page.getByLabel('Keyword', { exact: true }).inputValue()).toBe('serverless costs');
    await snap(page, '10-create-form');

    await page.getByRole('button', { name: 'Create & Schedule' }).click();
    const modal = page.getByRole('dialog', { name: 'Generated Content' });
    await modal.waitFor();
    await page.waitForURL(/articleId=/);
    const articleId = new URL(page.url()).searchParams.get('articleId')!;

    const blog = modal.getByLabel('Blog content');
    await expect.poll(() => blog.inputValue(), { timeout: 20_000 }).toMatch(/offline draft/i);
    const linkedin = modal.getByLabel('LinkedIn content');
    await expect.poll(() => linkedin.inputValue()).not.toBe('');
    await snap(page, '11-drafts');

    // GPT edit without an OpenAI key: a mechanical request is applied offline, and its notice floats over the
    // modal instead of pushing it (the modal keeps its height while the notice shows and after it leaves).
    const linkedinEditor = modal.getByRole('region', { name: 'LinkedIn Post' });
    await linkedinEditor.getByRole('button', { name: 'GPT' }).click();
    const modalHeight = async () => (await modal.boundingBox())!.height;
    const heightBefore = await modalHeight();
    await linkedinEditor.getByLabel('Edit request').fill('add hashtags Cloud');
    await linkedinEditor.getByRole('button', { name: 'Send' }).click();
    const applied = modal.getByText('Edit applied to the LinkedIn post.');
    await applied.waitFor();
    expect(await modalHeight()).toBe(heightBefore);
    await snap(page, '11b-edit-notice');
    await applied.waitFor({ state: 'detached', timeout: 10_000 });
    expect(await modalHeight()).toBe(heightBefore);
    expect(await linkedin.inputValue()).toMatch(/#Cloud$/);
    // A request only a language model can do is refused, saying the editing is offline and what to do about it.
    await linkedinEditor.getByLabel('Edit request').fill('make it funnier');
    await linkedinEditor.getByRole('button', { name: 'Send' }).click();
    const refusal = linkedinEditor.getByRole('alert');
    await expect.poll(() => refusal.textContent()).toMatch(/offline.*OpenAI key.*Settings/i);
    await snap(page, '11c-edit-offline');
    await linkedinEditor.getByRole('button', { name: 'Switch to Manual' }).click();

    await blog.fill('# Serverless cost control\n\nEdited by hand in the browser.');
    await modal.getByRole('region', { name: 'Blog Article' }).getByRole('button', { name: 'Save' }).click();
    await modal.getByRole('region', { name: 'Blog Article' }).getByText('Saved').waitFor();
    await linkedin.fill('Edited LinkedIn post from the browser #Serverless');
    await modal.getByRole('region', { name: 'LinkedIn Post' }).getByRole('button', { name: 'Save' }).click();
    await modal.getByRole('region', { name: 'LinkedIn Post' }).getByText('Saved').waitFor();

    await modal.getByRole('button', { name: 'Next' }).click();
    await modal.getByRole('button', { name: 'Generate Image' }).click();
    await modal.getByRole('button', { name: 'Regenerate Image' }).waitFor({ timeout: 30_000 });
    const preview = modal.getByRole('img', { name: /Generated image/ });
    await preview.waitFor();
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1200);
    await snap(page, '12-image');

    await modal.getByRole('button', { name: 'Continue to Schedule' }).click();
    await page.waitForURL(/\/schedule$/);

    // What the browser did is what the server kept.
    const saved = await page.evaluate(
      async (id) => (await (await fetch(`/api/articles/${id}`)).json()).article,
      articleId,
    );
    expect(saved.blog.content).toBe('# Serverless cost control\n\nEdited by hand in the browser.');
    expect(saved.linkedin.content).toBe('Edited LinkedIn post from the browser #Serverless');
    expect(saved.image.generatedAt).toBeTruthy();
    const unpublished = await page.evaluate(
      async () => (await (await fetch('/api/articles/unpublished')).json()).articles,
    );
    expect(unpublished.map((a: { _id: string }) => a._id)).toContain(articleId);
    expect(await page.evaluate(() => localStorage.getItem('draft'))).toBeNull();
    await page.close();
  });
});
