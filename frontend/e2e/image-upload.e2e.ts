import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  ADA,
  browserAvailable,
  createArticleWithDrafts,
  registerOnDashboard,
  snap,
  withAppAndBrowser,
} from './harness.js';
import { PHONE, onPhone, pageScrollWidth, showTheme } from './viewport.js';
import { axeViolations } from './axe.js';

const hasBrowser = browserAvailable();

/** A 3000×1000 photo, red on the left half and blue on the right, with a camera's EXIF and a GPS position. */
async function photoWithGps(): Promise<Buffer> {
  const halves = await sharp({ create: { width: 3000, height: 1000, channels: 3, background: '#e11d48' } })
    .composite([
      { input: { create: { width: 1500, height: 1000, channels: 3, background: '#2563eb' } }, left: 1500, top: 0 },
    ])
    .png()
    .toBuffer();
  return sharp(halves)
    .jpeg({ quality: 92 })
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Secret Phone' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 12/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 40/1' },
    })
    .toBuffer();
}

/** The mean colour of an image the page can fetch (with its session), as [r, g, b]. */
async function meanColourOf(page: Page, url: string): Promise<number[]> {
  const bytes = Buffer.from(await (await page.request.get(new URL(url, page.url()).href)).body());
  return (await sharp(bytes).stats()).channels.slice(0, 3).map((c) => Math.round(c.mean));
}

describe.skipIf(!hasBrowser)('image upload journey (Chromium)', () => {
  const journey = withAppAndBrowser();

  it('uploads a real JPEG through the file input, picks a focal point, applies it and sees the cropped preview', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cp-upload-'));
    const file = join(dir, 'harbour.jpg');
    writeFileSync(file, await photoWithGps());
    const context = await journey.browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    try {
      await registerOnDashboard(page, journey.app, ADA);
      const id = await createArticleWithDrafts(page, {
        title: 'Own pictures on the blog',
        topic: 'Using a photo of your own',
        keyword: 'photos',
        details: 'Upload, crop, publish.',
        imageDescription: '',
      });
      await page.goto(`${journey.app.url}/create?articleId=${id}`);
      const modal = page.getByRole('dialog', { name: 'Generated Content' });
      await modal.getByRole('button', { name: 'Next' }).click();

      // The real file input, reached by its label, takes the file as a person's file dialog would.
      const input = modal.getByLabel('Upload image');
      expect(await input.getAttribute('accept')).toBe('image/jpeg,image/png,image/webp');
      await input.setInputFiles(file);

      // Uploaded: the picker opens on the whole picture, the point in the centre.
      const picker = modal.getByRole('group', { name: /^Focal point:/ });
      await picker.waitFor({ timeout: 30_000 });
      expect(await picker.getAttribute('aria-label')).toBe('Focal point: 50% from the left, 50% from the top');
      await expect
        .poll(() => picker.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBe(2400);
      await modal.getByRole('img', { name: 'Blog crop preview' }).waitFor();
      await snap(page, '60-upload-picker-light');
      await showTheme(page, 'dark');
      await snap(page, '61-upload-picker-dark');
      // The picker in both themes meets WCAG A/AA (axe).
      for (const theme of ['dark', 'light'] as const) {
        await showTheme(page, theme);
        const violations = await axeViolations(page, { include: '[role="dialog"]' });
        expect(violations.map((v) => `${theme}: ${v.id} ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
      }

      // A click near the left edge, then the arrow keys.
      const box = (await picker.boundingBox())!;
      await page.mouse.click(box.x + box.width * 0.1, box.y + box.height * 0.5);
      expect(await picker.getAttribute('aria-label')).toBe('Focal point: 10% from the left, 50% from the top');
      await picker.focus();
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      expect(await picker.getAttribute('aria-label')).toBe('Focal point: 6% from the left, 50% from the top');
      await snap(page, '62-upload-point-light');

      await modal.getByRole('button', { name: 'Apply crop' }).click();
      await modal.getByText(/Your picture, cut around 6% across, 50% down/).waitFor({ timeout: 30_000 });
      const preview = modal.getByRole('img', { name: 'Uploaded image, blog crop' });
      await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1200);
      await snap(page, '63-upload-cropped-light');
      await showTheme(page, 'dark');
      await snap(page, '64-upload-cropped-dark');

      // What the server kept: both sizes cut around the point (the left, red half), no EXIF, no GPS.
      const article = await page.evaluate(
        async (articleId) => (await (await fetch(`/api/articles/${articleId}`)).json()).article,
        id,
      );
      expect(article.image.source).toBe('uploaded');
      // The click landed on a pixel: within half a percent of 10% and 50%, then two steps of 2% left.
      expect(article.image.focalPoint.x).toBeCloseTo(0.06, 2);
      expect(article.image.focalPoint.y).toBeCloseTo(0.5, 2);
      for (const url of [article.image.url, article.image.linkedinUrl]) {
        const [red, , blue] = await meanColourOf(page, url);
        expect(red).toBeGreaterThan(180);
        expect(blue).toBeLessThan(120);
      }
      const original = Buffer.from(
        await (await page.request.get(new URL(article.image.original.url, page.url()).href)).body(),
      );
      expect((await sharp(original).metadata()).exif).toBeUndefined();
      expect(original.includes(Buffer.from('Secret Phone'))).toBe(false);

      // At phone size the step fits the screen, picker included, in both themes.
      await onPhone(page, async () => {
        await modal.getByRole('button', { name: 'Adjust crop' }).click();
        await picker.waitFor();
        expect(await pageScrollWidth(page)).toBeLessThanOrEqual(PHONE.width);
        await picker.scrollIntoViewIfNeeded();
        await snap(page, '65-upload-picker-phone-dark');
        await showTheme(page, 'light');
        await snap(page, '66-upload-picker-phone-light');
        await modal.getByRole('button', { name: 'Cancel' }).click();
      });
    } finally {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
