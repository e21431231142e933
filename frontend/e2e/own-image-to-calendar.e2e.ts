import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  ADA,
  browserAvailable,
  callApi,
  connectWordPress,
  createArticleWithDrafts,
  registeredPage,
  scheduleVia,
  snap,
  withAppAndFakeWordPress,
  type RunningApp,
} from './harness.js';
import { cellName, dayParam, fixedMonth, tokyoAt, tokyoDay } from './tokyo.js';
import { settle } from './viewport.js';

const hasBrowser = browserAvailable();

// The user's zone is Tokyo (see tokyo.ts); the browser's clock is in Los Angeles. On the calendar it stands still in a
// month of known shape (fixedMonth), so the drag is between the same two cells whatever day the suite runs.

/** The automation events the local stack appended so far ($DATA_DIR/events.jsonl). */
function recordedEvents(app: RunningApp): { 'detail-type': string; source: string; detail: any }[] {
  const file = join(app.dataDir, 'events.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}

/** A 3000×1000 photo, green on its left third and grey elsewhere, with GPS in its EXIF. */
async function photo(): Promise<Buffer> {
  const base = await sharp({ create: { width: 3000, height: 1000, channels: 3, background: '#808080' } })
    .composite([
      { input: { create: { width: 1000, height: 1000, channels: 3, background: '#16a34a' } }, left: 0, top: 0 },
    ])
    .png()
    .toBuffer();
  return sharp(base)
    .jpeg({ quality: 90 })
    .withExif({
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '35/1 40/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '139/1 45/1 0/1' },
    })
    .toBuffer();
}

describe.skipIf(!hasBrowser)('own image → calendar → published, with its events (Chromium, fake WordPress)', () => {
  const journey = withAppAndFakeWordPress();

  it('upload and crop a photo → schedule → drag on the calendar → publish from the calendar: WordPress gets the crop; the events are recorded', async () => {
    const { app, wp } = journey;
    const dir = mkdtempSync(join(tmpdir(), 'cp-journey-'));
    const file = join(dir, 'garden.jpg');
    writeFileSync(file, await photo());
    const { context, page } = await registeredPage(journey, 'America/Los_Angeles', { ...ADA, timezone: 'Asia/Tokyo' });
    try {
      await connectWordPress(page, wp);
      const title = 'A garden in every season';
      const id = await createArticleWithDrafts(page, {
        title,
        topic: 'Planting for four seasons',
        keyword: 'garden',
        details: 'What to plant when.',
        imageDescription: '',
      });
      // Drafting is an event.
      await expect
        .poll(() =>
          recordedEvents(app)
            .filter((e) => e.detail.articleId === id)
            .map((e) => e['detail-type']),
        )
        .toContain('ArticleDrafted.v1');

      // Upload → crop: the picture's green third is where the point goes.
      await page.goto(`${app.url}/create?articleId=${id}`);
      const modal = page.getByRole('dialog', { name: 'Generated Content' });
      await modal.getByRole('button', { name: 'Next' }).click();
      await modal.getByLabel('Upload image').setInputFiles(file);
      const picker = modal.getByRole('group', { name: /^Focal point:/ });
      await picker.waitFor({ timeout: 30_000 });
      const box = (await picker.boundingBox())!;
      await page.mouse.click(box.x + box.width * 0.1, box.y + box.height * 0.5);
      await modal.getByRole('button', { name: 'Apply crop' }).click();
      await modal.getByText(/Your picture, cut around 10% across/).waitFor({ timeout: 30_000 });
      await settle(page);
      await snap(page, '80-journey-cropped');

      // Schedule the blog at 10:00 Tokyo time on Friday the 13th; the browser's today is Tuesday the 10th.
      const month = fixedMonth();
      const day = month.day(13);
      expect(await scheduleVia(page, id, 'blog', tokyoAt(day, 10))).toBe(200);
      await page.clock.setFixedTime(new Date(tokyoAt(month.day(10), 9.5)));

      // The calendar: drag it to the next day (the same row of the grid), same time of day.
      await page.goto(`${app.url}/calendar?view=month&date=${dayParam(day)}`);
      const itemName = new RegExp(`^${title}, WordPress, Scheduled 10:00`);
      await page
        .getByRole('gridcell', { name: cellName(day) })
        .getByRole('button', { name: itemName })
        .waitFor();
      const next = month.day(14);
      await page
        .getByRole('gridcell', { name: cellName(day) })
        .getByRole('button', { name: itemName })
        .dragTo(page.getByRole('gridcell', { name: cellName(next) }));
      const moved = page.getByRole('gridcell', { name: cellName(next) }).getByRole('button', { name: itemName });
      await moved.waitFor();
      await expect
        .poll(async () => (await callApi(page, `/api/articles/${id}`)).json.article.scheduled.blog)
        .toBe(tokyoAt(next, 10));
      await snap(page, '81-journey-calendar-moved');

      // Its card actions from the calendar: Publish Now to WordPress.
      await moved.click();
      const dialog = page.getByRole('dialog', { name: /^WordPress · / });
      await dialog.getByRole('button', { name: 'Publish Now to WordPress' }).click();
      const confirm = page.getByRole('dialog', { name: 'Publish to WordPress now?' });
      await confirm.getByRole('button', { name: 'Confirm' }).click();
      await expect.poll(() => wp.posts.length, { timeout: 30_000 }).toBe(1);

      // WordPress got the uploaded picture cut around the point: 1200×800, mostly green (a centre cut is
      // mostly grey), no EXIF.
      const post = wp.posts[0]!;
      const media = wp.media.find((m) => m.id === post.featuredMedia)!;
      const meta = await sharp(media.bytes).metadata();
      expect([meta.width, meta.height]).toEqual([1200, 800]);
      expect(meta.exif).toBeUndefined();
      const [red, green, blue] = (await sharp(media.bytes).stats()).channels.map((c) => c.mean);
      expect(green).toBeGreaterThan(red! + 50);
      expect(green).toBeGreaterThan(blue! + 50);

      // The publish is an event, with the post's address and no content.
      await expect
        .poll(() =>
          recordedEvents(app).find((e) => e['detail-type'] === 'PublishSucceeded.v1' && e.detail.articleId === id),
        )
        .toMatchObject({
          source: 'content-publisher',
          detail: { platform: 'wordpress', trigger: 'manual', title },
        });
      const published = recordedEvents(app).find((e) => e['detail-type'] === 'PublishSucceeded.v1')!;
      expect(published.detail.postUrl).toMatch(new RegExp(`^${wp.url}/`));
      expect(JSON.stringify(recordedEvents(app))).not.toContain('What to plant when');

      // The calendar now shows the blog at its publication time (the server's today), as published.
      await page.keyboard.press('Escape');
      await page.goto(`${app.url}/calendar?view=month&date=${dayParam(tokyoDay(0))}`);
      await page
        .getByRole('gridcell', { name: new RegExp(`^${cellName(tokyoDay(0))}`) })
        .getByRole('button', { name: new RegExp(`^${title}, WordPress, Published`) })
        .waitFor();
      await snap(page, '82-journey-calendar-published');
    } finally {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
