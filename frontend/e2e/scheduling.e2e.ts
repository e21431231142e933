import { describe, expect, it } from 'vitest';
import {
  ADA,
  GRACE,
  browserAvailable,
  callApi,
  connectWordPress,
  createArticleWithDrafts,
  outbox,
  registerOnDashboard,
  registeredPage,
  scheduleVia,
  snap,
  withAppAndBrowser,
  withAppAndFakeWordPress,
} from './harness.js';
import { PHONE, settle } from './viewport.js';

const hasBrowser = browserAvailable();

// The user's zone in this journey: Tokyo, UTC+9 all year (no daylight saving).
const TOKYO_MS = 9 * 60 * 60_000;
const pad = (n: number) => String(n).padStart(2, '0');
/** "YYYY-MM-DD HH:mm" on Tokyo's clock. */
function tokyoText(instant: number): string {
  const t = new Date(instant + TOKYO_MS);
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())} ${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}`;
}
/** The instant a "YYYY-MM-DD HH:mm" on Tokyo's clock stands for. */
function tokyoInstant(text: string): number {
  const [y, m, d, h, min] = text.split(/[- :]/).map(Number) as [number, number, number, number, number];
  return Date.UTC(y, m - 1, d, h, min) - TOKYO_MS;
}
/** Today in Tokyo ("YYYY-MM-DD") and the minute of its day. */
function tokyoNow(): [string, number] {
  const text = tokyoText(Date.now());
  return [text.slice(0, 10), Number(text.slice(11, 13)) * 60 + Number(text.slice(14, 16))];
}

describe.skipIf(!hasBrowser)('scheduling journey (Chromium, fake WordPress, local outbox)', () => {
  const journey = withAppAndFakeWordPress();

  it('schedule both platforms from the badge → approval e-mail → approve page → published to WordPress once', async () => {
    const { app, wp } = journey;
    // The browser's clock is in Los Angeles; the picker and the times shown back are on the user's own
    // zone's clock (Tokyo).
    const { context, page } = await registeredPage(journey, 'America/Los_Angeles', {
      ...ADA,
      password: 'engines',
      timezone: 'Asia/Tokyo',
    });

    await connectWordPress(page, wp);

    const title = 'Scheduling posts that wait for approval';
    const id = await createArticleWithDrafts(page, {
      title,
      topic: 'Why a human approves every scheduled post',
      keyword: 'editorial workflow',
      details: 'Schedule ahead. Approve by e-mail. Publish once.',
      imageDescription: '',
    });

    // /schedule: the badge opens scheduling for both platforms.
    await page.goto(`${app.url}/schedule`);
    const card = page.getByRole('article', { name: title });
    await card.waitFor();
    await card.getByRole('button', { name: 'Overall status: Not Scheduled' }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule blog and LinkedIn' });
    await dialog.waitFor();
    const input = dialog.getByRole('textbox', { name: 'Date and time' });

    // Default: one hour ahead on the user's clock (Tokyo, UTC+9 all year), not the browser's
    // (Los Angeles), on a 5-minute step.
    const shown = await input.inputValue();
    expect(shown).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    const ahead = tokyoInstant(shown) - Date.now();
    expect(ahead).toBeGreaterThan(55 * 60_000);
    expect(ahead).toBeLessThanOrEqual(65 * 60_000);
    expect(Number(shown.slice(-2)) % 5).toBe(0);
    const hint = dialog.getByText(/^24-hour clock/);
    expect(await hint.textContent()).toMatch(
      /^24-hour clock, 5-minute steps, in your time zone \(Asia\/Tokyo\)\. Goes out .+ GMT\+9\.$/,
    );

    // The calendar with its 24-hour list in 5-minute steps; today's past slots (on Tokyo's clock) are disabled.
    await input.click();
    const timeList = dialog.locator('.react-datepicker__time-list-item');
    await timeList.first().waitFor();
    expect(await timeList.count()).toBe(288);
    expect(await timeList.nth(13 * 12 + 7).textContent()).toBe('13:35');
    const disabled = await dialog.locator('.react-datepicker__time-list-item[aria-disabled="true"]').count();
    const [today, minuteOfDay] = tokyoNow();
    // The list is of the shown day: today's slots before the minute under way are past (none on tomorrow's).
    const expected = shown.startsWith(today) ? Math.ceil(minuteOfDay / 5) : 0;
    expect([expected, expected + 1]).toContain(disabled); // the minute may turn meanwhile
    await page.waitForTimeout(250); // the modal's entrance animation
    await snap(page, '30-schedule-modal');

    // Text the picker cannot read stays as typed, is refused under the field, and nothing is sent.
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && /\/schedule$/.test(r.url())) puts.push(r.postData() ?? '');
    });
    await input.fill('tomorrow');
    await dialog.getByText(/^24-hour clock/).click(); // leave the field
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog.getByText('Please select a valid date and time.').waitFor();
    expect(await input.inputValue()).toBe('tomorrow');
    await snap(page, '30b-schedule-invalid');
    // A past time (two minutes ago on Tokyo's clock) is refused too: nothing is moved to now.
    const past = tokyoText(Date.now() - 2 * 60_000);
    await input.fill(past);
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog.getByText('Please choose a future date and time.').waitFor();
    expect(await input.inputValue()).toBe(past);
    expect(puts).toEqual([]);

    // A time between the 5-minute steps is refused as well, naming the next step; only the error is shown.
    const step = Math.ceil((Date.now() + 2 * 60 * 60_000) / (5 * 60_000)) * 5 * 60_000;
    await input.fill(tokyoText(step + 3 * 60_000));
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog
      .getByText(`Please choose a time in 5-minute steps, such as ${tokyoText(step + 5 * 60_000).slice(11)}.`)
      .waitFor();
    expect(await hint.textContent()).not.toContain('Goes out');
    expect(puts).toEqual([]);

    // The first time today's list offers (the minute under way when it is on a step, else the next step), picked
    // there. The field is set to now first, so that the list is today's; in today's last five minutes (on Tokyo's
    // clock) there is none: that is waited out, and so are a minute's last seconds (a step under way stays "now"
    // until Schedule is pressed).
    while (tokyoNow()[1] >= 23 * 60 + 55 || new Date().getSeconds() > 45) await page.waitForTimeout(1000);
    await input.fill(tokyoText(Date.now()));
    const first = dialog.locator('.react-datepicker__time-list-item:not([aria-disabled="true"])').first();
    await first.click();
    const picked = await input.inputValue();
    expect(picked.slice(11)).toBe(await first.textContent());
    expect(tokyoInstant(picked)).toBeGreaterThan(Date.now() - 60_000);
    expect(tokyoInstant(picked) - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    await snap(page, '31-schedule-first-slot');
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();

    // One toast for both, with the time in the user's zone (Tokyo is GMT+9 in en-US).
    const toast = page.getByText(/^Successfully scheduled blog and LinkedIn for /);
    await toast.waitFor();
    expect(await toast.textContent()).toMatch(` ${picked.slice(11)} GMT+9`);
    await page.waitForTimeout(900); // the toast slides in
    await snap(page, '31b-scheduled-toast');
    await dialog.waitFor({ state: 'detached' });
    const badge = card.getByRole('button', { name: /^Overall status: (Scheduled|Content Created)$/ });
    await badge.waitFor();
    await snap(page, '32-scheduled');

    // What was sent is the time the field showed, read on Tokyo's clock.
    expect(puts.map((body) => JSON.parse(body).datetime)).toEqual([
      new Date(tokyoInstant(picked)).toISOString(),
      new Date(tokyoInstant(picked)).toISOString(),
    ]);
    // Rather than wait up to five minutes for that step, both platforms are moved to now (the server's now)
    // through the API, unless the step was the minute under way.
    if (tokyoInstant(picked) > Date.now()) {
      for (const platform of ['blog', 'linkedin'] as const)
        expect(await scheduleVia(page, id, platform, new Date().toISOString())).toBe(200);
    }
    const article = (await callApi(page, `/api/articles/${id}`)).json.article;
    expect(Math.abs(Date.parse(article.scheduled.blog) - Date.parse(article.scheduled.linkedin))).toBeLessThan(2000);
    expect(Math.abs(Date.parse(article.scheduled.blog) - Date.now())).toBeLessThan(60_000);

    // The local scheduler fires at once: the approval e-mail lands in the outbox.
    await expect
      .poll(() => outbox(app).filter((m) => /WordPress/.test(m.subject)).length, { timeout: 20_000, interval: 250 })
      .toBe(1);
    const mail = outbox(app).find((m) => /WordPress/.test(m.subject))!;
    expect(mail.to).toContain('ada@example.com');
    expect(mail.subject).toContain(title);
    expect(mail.text).toContain(title);
    expect(mail.text).toContain(`${app.url}/schedule`);
    const approveUrl = /(http:\/\/\S+\/approve\?token=\S+)/.exec(mail.text ?? '')?.[1];
    expect(approveUrl, mail.text).toBeTruthy();
    expect(approveUrl!.startsWith(`${app.url}/approve?token=`)).toBe(true);

    // The list shows the run: content is ready for approval.
    await page.reload();
    await card.getByRole('button', { name: 'Overall status: Content Created' }).waitFor({ timeout: 20_000 });
    await card
      .getByRole('region', { name: 'Blog' })
      .getByText(/^Ready for approval, scheduled/)
      .waitFor();
    await snap(page, '33-content-created');
    expect(wp.posts).toHaveLength(0);

    // Opened signed out in another zone (Berlin), the approve page shows the post as WordPress will (its
    // headings as headings, no Markdown marks) and the owner's time, in the owner's zone and naming it.
    const elsewhere = await journey.browser.newContext({ timezoneId: 'Europe/Berlin', locale: 'de-DE' });
    const away = await elsewhere.newPage();
    await away.goto(approveUrl!);
    const post = away.getByRole('article', { name: 'WordPress post' });
    await post.waitFor();
    expect(await post.getByRole('heading', { level: 2 }).count()).toBeGreaterThan(0);
    expect(await post.textContent()).not.toMatch(/#{2,}|^> /m);
    expect(await away.locator('p', { hasText: 'Scheduled for' }).textContent()).toMatch(
      /^Scheduled for \w+day, \d{1,2} \w+ \d{4} at \d{2}:\d{2} GMT\+9 \(Asia\/Tokyo\)\.$/,
    );
    await elsewhere.close();

    // The approve page shows what would be published and publishes only on the button.
    await page.goto(approveUrl!);
    await page.getByRole('heading', { name: `Publish “${title}” to WordPress?` }).waitFor();
    const approve = page.getByRole('button', { name: 'Approve and publish to WordPress' });
    await approve.waitFor();
    expect(wp.posts).toHaveLength(0);
    await snap(page, '34-approve');
    await approve.click();
    await page.getByText('Published to WordPress.').waitFor();
    await snap(page, '35-approved');
    expect(wp.posts).toHaveLength(1);
    expect(wp.posts[0]!.title).toBe(title);
    expect(wp.posts[0]!.status).toBe('publish');

    // /schedule shows the blog as published (LinkedIn still waits), and /history lists it.
    await page.goto(`${app.url}/schedule`);
    const blog = page.getByRole('article', { name: title }).getByRole('region', { name: 'Blog' });
    await blog.getByText('Published', { exact: true }).waitFor();
    expect(await blog.getByRole('link', { name: /View on WordPress/ }).getAttribute('href')).toMatch(
      new RegExp(`^${wp.url}/.*${wp.posts[0]!.slug}/$`),
    );
    await snap(page, '36-schedule-after-approval');
    await page.goto(`${app.url}/history`);
    const rows = page.getByRole('table').locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().locator('td').nth(0).textContent()).toBe(title);
    expect(await rows.first().locator('td').nth(1).textContent()).toBe('WordPress');
    await snap(page, '37-history');

    // Publishing once: the same link again publishes nothing more.
    await page.goto(approveUrl!);
    await page.getByText('Already published.').waitFor();
    expect(await page.getByRole('button', { name: /Approve and publish/ }).count()).toBe(0);
    expect(wp.posts).toHaveLength(1);

    // The modal in the dark theme, from the badge, which now offers only LinkedIn (the blog is live);
    // Escape closes the dialog.
    await page.evaluate(() => localStorage.setItem('app-theme', 'dark'));
    await page.goto(`${app.url}/schedule`);
    await page
      .getByRole('article', { name: title })
      .getByRole('button', { name: /^Overall status:/ })
      .click();
    const dark = page.getByRole('dialog', { name: 'Schedule LinkedIn' });
    await dark.locator('.react-datepicker__time-list-item').first().waitFor();
    await page.waitForTimeout(250);
    await snap(page, '38-schedule-modal-dark');
    // On a phone (390×844): the calendar and the time list side by side, within the dialog.
    // The time list is scrolled to where today's past (disabled) slots end, to show both kinds.
    await page.setViewportSize(PHONE);
    await dark.locator('.react-datepicker__time-list').evaluate((list) => {
      const past = list.querySelectorAll<HTMLElement>('[aria-disabled="true"]');
      const last = past[past.length - 1];
      if (last) list.scrollTop = last.offsetTop - list.clientHeight / 2;
    });
    await page.waitForTimeout(250);
    await snap(page, '38b-schedule-modal-dark-phone');
    const picker = (await dark.locator('.react-datepicker').boundingBox())!;
    const field = (await dark.getByRole('textbox', { name: 'Date and time' }).boundingBox())!;
    expect(picker.x).toBeGreaterThanOrEqual(field.x);
    expect(picker.x + picker.width).toBeLessThanOrEqual(field.x + field.width);
    await page.keyboard.press('Escape');
    await dark.waitFor({ state: 'detached' });
    await context.close();
  });
});

describe.skipIf(!hasBrowser)('the schedule modal left open (Chromium)', () => {
  const journey = withAppAndBrowser();

  it('the picker keeps its size for 30 s, within the window, and leaves Cancel and Schedule clickable (desktop, then phone)', async () => {
    const { app, browser } = journey;
    // The browser's clock is in Berlin, the user's in Tokyo (the field's time is read on Tokyo's clock).
    const context = await browser.newContext({
      timezoneId: 'Europe/Berlin',
      locale: 'en-US',
      viewport: { width: 1366, height: 900 },
    });
    const page = await context.newPage();
    await registerOnDashboard(page, app, { ...GRACE, timezone: 'Asia/Tokyo' });
    const title = 'A picker that stays put';
    const created = await callApi(page, '/api/articles', {
      title,
      topic: 'Scheduling without surprises',
      keyword: 'calendar',
      details: '',
      imageDescription: '',
    });
    expect(created.status).toBe(201);
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && /\/schedule$/.test(r.url())) puts.push(r.postData() ?? '');
    });

    await page.goto(`${app.url}/schedule`);
    await page
      .getByRole('article', { name: title })
      .getByRole('button', { name: /^Overall status:/ })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Schedule blog and LinkedIn' });
    const input = dialog.getByRole('textbox', { name: 'Date and time' });
    await input.click();
    await dialog.locator('.react-datepicker__time-list-item').first().waitFor();
    // A typed time is brought into view in the time list (tomorrow's last slot, far from the default).
    const shown = `${tokyoText(Date.now() + 24 * 60 * 60_000).slice(0, 10)} 23:55`;
    await input.fill(shown);
    const selectedSlot = dialog.locator('.react-datepicker__time-list-item--selected');
    await expect.poll(() => selectedSlot.textContent()).toBe('23:55');
    await expect
      .poll(async () => {
        const [list, slot] = await Promise.all([
          dialog.locator('.react-datepicker__time-list').boundingBox(),
          selectedSlot.boundingBox(),
        ]);
        return slot!.y >= list!.y && slot!.y + slot!.height <= list!.y + list!.height;
      })
      .toBe(true);

    const boxes = () =>
      Promise.all(['.react-datepicker', '.react-datepicker__time-list'].map((s) => dialog.locator(s).boundingBox()));
    for (const [size, name] of [
      [{ width: 1366, height: 900 }, '39-schedule-picker-30s'],
      [PHONE, '39b-schedule-picker-30s-phone'],
    ] as const) {
      await page.setViewportSize(size);
      await settle(page);
      const first = await boxes();
      // 15 s at each size, 30 s open in all: it grew by 10–30 px a second.
      for (let i = 0; i < 3; i++) {
        await page.waitForTimeout(5000);
        expect(await boxes(), `${size.width}×${size.height} after ${(i + 1) * 5} s`).toEqual(first);
      }
      const picker = first[0]!;
      expect(picker.y).toBeGreaterThanOrEqual(0);
      expect(picker.x).toBeGreaterThanOrEqual(0);
      expect(picker.y + picker.height).toBeLessThanOrEqual(size.height);
      expect(picker.x + picker.width).toBeLessThanOrEqual(size.width);
      // Nothing covers the dialog's own buttons: a click there reaches them (it picked a time instead).
      for (const label of ['Cancel', 'Schedule']) {
        const button = dialog.getByRole('button', { name: label, exact: true });
        const box = (await button.boundingBox())!;
        expect(box.y + box.height, `${label} is within the window`).toBeLessThanOrEqual(size.height);
        await button.click({ trial: true, timeout: 2000 });
      }
      await snap(page, name);
    }

    // Schedule sends the time the field showed (the time list took no click meant for the button)…
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(puts.map((body) => JSON.parse(body).datetime)).toEqual([
      new Date(tokyoInstant(shown)).toISOString(),
      new Date(tokyoInstant(shown)).toISOString(),
    ]);
    // …and Cancel closes the dialog and sends nothing.
    await page
      .getByRole('article', { name: title })
      .getByRole('button', { name: /^Overall status:/ })
      .click();
    await dialog.locator('.react-datepicker__time-list-item').first().waitFor();
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(puts).toHaveLength(2);
    await context.close();
  });
});
