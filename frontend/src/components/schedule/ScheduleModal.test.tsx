import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Article, Platform } from '@app/shared';
import ScheduleModal from './ScheduleModal';
import { articleListKey } from '../../hooks/useArticleLists';
import { formatDateTime } from '../../lib/userTime';
import { makeArticle } from '../../test/articles';
import {
  deferred,
  mockApi,
  renderWithProviders,
  type MockRequest,
  type RecordedRequest,
  type Reply,
} from '../../test/utils';

// The browser's clock is in Los Angeles and the user's own zone is Kolkata (UTC+05:30): the picker must
// work on the user's clock. A fixed now: 2030-03-04 10:07:42 UTC, 15:37:42 in Kolkata, 02:07:42 in LA.
const BROWSER_ZONE = 'America/Los_Angeles';
const ZONE = 'Asia/Kolkata';
const NOW = new Date('2030-03-04T10:07:42Z');
const clock = () => new Date(NOW.getTime());

beforeEach(() => {
  vi.stubEnv('TZ', BROWSER_ZONE); // Node applies a new TZ at once
});

afterEach(() => {
  vi.unstubAllEnvs();
});

function renderModal(
  platforms: Platform[],
  article = makeArticle(),
  { timeZone = ZONE, now = clock }: { timeZone?: string; now?: () => Date } = {},
) {
  let closed = 0;
  const view = renderWithProviders(
    <ScheduleModal article={article} platforms={platforms} timeZone={timeZone} onClose={() => closed++} now={now} />,
  );
  view.queryClient.setQueryData(articleListKey.unpublished, [article]);
  return { ...view, closed: () => closed };
}

const input = () => screen.getByLabelText('Date and time') as HTMLInputElement;
/** Types a whole value at once and leaves the field. */
const enter = (text: string) => {
  fireEvent.change(input(), { target: { value: text } });
  fireEvent.blur(input());
};
const hint = () => screen.getByText(/^24-hour clock/);
/** The time list's slots (found by class: a role query over 288 options is slow in jsdom). */
const slots = () => [...document.querySelectorAll<HTMLElement>('.react-datepicker__time-list-item')];
const slot = (time: string) => {
  const found = slots().find((li) => li.textContent === time);
  if (!found) throw new Error(`no slot ${time}`);
  return found;
};
const puts = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'PUT');

/** Both schedule calls answer with the article as their own write left it. */
function scheduleRoutes(article: Article, override: Partial<Record<string, Reply<'schedule.set'>>> = {}) {
  return {
    'schedule.set': ({ body: { platform, datetime } }: MockRequest<'schedule.set'>): Reply<'schedule.set'> =>
      override[platform] ?? {
        success: true,
        article: { ...article, scheduled: { ...article.scheduled, [platform]: datetime } },
        scheduledFor: datetime,
      },
  };
}

describe("ScheduleModal: the picker, on the user's clock", () => {
  it("runs in a browser zone other than the user's (the premise of these tests)", () => {
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe(BROWSER_ZONE);
    expect(NOW.getHours()).toBe(2); // 02:07 in Los Angeles
  });

  it("defaults to one hour from now on the user's clock, rounded up to 5 minutes, and names the zone", () => {
    mockApi({});
    renderModal(['blog', 'linkedin']);
    const dialog = screen.getByRole('dialog', { name: 'Schedule blog and LinkedIn' });
    expect(within(dialog).getByText('Automate your content calendar')).toBeInTheDocument();
    // 15:37:42 in Kolkata: one hour ahead is 16:37:42, rounded up to 16:40 (11:10 UTC; 03:10 in LA).
    expect(input().value).toBe('2030-03-04 16:40');
    expect(input()).toHaveFocus();
    expect(hint()).toHaveTextContent(
      `24-hour clock, 5-minute steps, in your time zone (Asia/Kolkata). Goes out ${formatDateTime('2030-03-04T11:10:00Z', ZONE)}.`,
    );
  });

  it("offers a 24-hour time list in 5-minute steps (00:00 … 23:55) and a calendar from the user's today", async () => {
    mockApi({});
    // 20:00 UTC: still the 4th in Los Angeles (12:00), already the 5th in Kolkata (01:30).
    renderModal(['blog'], makeArticle(), { now: () => new Date('2030-03-04T20:00:00Z') });
    expect(screen.getByRole('dialog', { name: 'Schedule Blog' })).toBeInTheDocument();
    expect(input().value).toBe('2030-03-05 02:30');
    await userEvent.setup().click(input());
    const times = slots().map((li) => li.textContent);
    expect(slots().every((li) => li.getAttribute('role') === 'option')).toBe(true);
    expect(times).toHaveLength(24 * 12);
    expect(times.slice(0, 3)).toEqual(['00:00', '00:05', '00:10']);
    expect(times).toContain('13:35');
    expect(times.at(-1)).toBe('23:55');
    // minDate is today in Kolkata: the 4th (today in LA) cannot be picked.
    const day = (n: string) =>
      document.querySelector(`.react-datepicker__day--0${n}:not(.react-datepicker__day--outside-month)`);
    expect(day('04')).toHaveAttribute('aria-disabled', 'true');
    expect(day('05')).toHaveAttribute('aria-disabled', 'false');
    expect(day('05')).toHaveClass('schedule-modal__today');
    expect(day('04')).not.toHaveClass('schedule-modal__today');
    // The slots of today that have passed in Kolkata are disabled; the minute under way is not past.
    expect(slot('01:25')).toHaveAttribute('aria-disabled', 'true');
    expect(slot('01:30')).not.toHaveAttribute('aria-disabled');
  });

  it('disables the slots of today that have passed; a disabled slot cannot be picked, a later one can', async () => {
    mockApi({});
    renderModal(['blog']);
    const user = userEvent.setup();
    await user.click(input());
    for (const past of ['00:00', '02:05', '15:30', '15:35'])
      expect(slot(past)).toHaveAttribute('aria-disabled', 'true');
    for (const open of ['15:40', '16:40', '23:55']) expect(slot(open)).not.toHaveAttribute('aria-disabled');
    await user.click(slot('15:35'));
    expect(input().value).toBe('2030-03-04 16:40');
    await user.click(slot('17:00'));
    await waitFor(() => expect(input().value).toBe('2030-03-04 17:00'));
    expect(hint()).toHaveTextContent(`Goes out ${formatDateTime('2030-03-04T11:30:00Z', ZONE)}.`);
  });

  it('keeps a typed past time as typed, says "Please choose a future date and time." and sends nothing', async () => {
    const { requests } = mockApi({});
    renderModal(['blog']);
    enter('2030-03-04 15:00');
    expect(input().value).toBe('2030-03-04 15:00'); // not moved to now
    await userEvent.setup().click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Please choose a future date and time.')).toBeInTheDocument();
    expect(input().value).toBe('2030-03-04 15:00');
    expect(input()).toHaveAttribute('aria-invalid', 'true');
    // One message: the error, and no "Goes out …" for a time that does not go out.
    expect(hint()).toHaveTextContent(/^24-hour clock, 5-minute steps, in your time zone \(Asia\/Kolkata\)\.$/);
    expect(puts(requests)).toHaveLength(0);
  });

  it('refuses a typed time between the 5-minute steps (16:03) with one message naming the next step, and sends nothing', async () => {
    const { requests } = mockApi({});
    renderModal(['blog', 'linkedin']);
    enter('2030-03-04 16:03');
    expect(input().value).toBe('2030-03-04 16:03'); // not rounded
    expect(hint()).not.toHaveTextContent('Goes out');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Please choose a time in 5-minute steps, such as 16:05.')).toBeInTheDocument();
    expect(input()).toHaveAttribute('aria-invalid', 'true');
    expect(hint()).not.toHaveTextContent('Goes out');
    expect(puts(requests)).toHaveLength(0);
    // A time on a step is taken, and says when it goes out.
    enter('2030-03-04 16:05');
    await waitFor(() => expect(screen.queryByText(/5-minute steps, such as/)).not.toBeInTheDocument());
    expect(hint()).toHaveTextContent(`Goes out ${formatDateTime('2030-03-04T10:35:00Z', ZONE)}.`);
  });

  it.each(['tomorrow', '2026-13-45 99:99', '2030-03-0', '2030-03-05 9:15'])(
    'keeps text it cannot read (%s) as typed, says "Please select a valid date and time." and sends nothing',
    async (text) => {
      const { requests } = mockApi({});
      renderModal(['blog', 'linkedin']);
      const user = userEvent.setup();
      // Typed key by key over the default (the calendar stays closed: the field has the focus already).
      await user.clear(input());
      await user.type(input(), text, { skipClick: true });
      await user.click(screen.getByRole('button', { name: 'Schedule' }));
      expect(await screen.findByText('Please select a valid date and time.')).toBeInTheDocument();
      expect(input().value).toBe(text);
      expect(input()).toHaveAttribute('aria-invalid', 'true');
      expect(hint()).not.toHaveTextContent('Goes out');
      expect(puts(requests)).toHaveLength(0);
    },
  );

  it('keeps unreadable text as typed, rather than the day the calendar shows; Enter refuses it and sends nothing', async () => {
    const { requests } = mockApi({});
    renderModal(['blog']);
    const user = userEvent.setup();
    expect(slots()).toHaveLength(288); // the calendar is part of the dialog, shown from the start
    fireEvent.change(input(), { target: { value: '2030-03-06 1' } }); // half typed
    expect(input().value).toBe('2030-03-06 1');
    await user.keyboard('{Enter}'); // submits: no day or time of the calendar is taken
    expect(await screen.findByText('Please select a valid date and time.')).toBeInTheDocument();
    expect(input().value).toBe('2030-03-06 1');
    expect(puts(requests)).toHaveLength(0);
  });

  it('says "Please select a valid date and time." when the field is left unreadable, before any Schedule', async () => {
    mockApi({});
    renderModal(['blog']);
    enter('2030-03-05 25:00');
    expect(input().value).toBe('2030-03-05 25:00');
    expect(await screen.findByText('Please select a valid date and time.')).toBeInTheDocument();
  });

  it('shows "Please select a valid date and time." when the field is empty, and sends nothing', async () => {
    const { requests } = mockApi({});
    renderModal(['blog']);
    enter('');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Please select a valid date and time.')).toBeInTheDocument();
    expect(input()).toHaveAttribute('aria-invalid', 'true');
    expect(puts(requests)).toHaveLength(0);
  });

  it('shows "Please choose a future date and time." when the chosen minute has passed by the time of submitting', async () => {
    const { requests } = mockApi({});
    let t = NOW.getTime();
    renderModal(['blog'], makeArticle(), { now: () => new Date(t) });
    enter('2030-03-04 16:00');
    expect(input().value).toBe('2030-03-04 16:00');
    t += 60 * 60_000; // the person left the dialog open for an hour
    await userEvent.setup().click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Please choose a future date and time.')).toBeInTheDocument();
    expect(puts(requests)).toHaveLength(0);
  });
});

describe('ScheduleModal: rescheduling', () => {
  it("shows the time a platform is scheduled for at present, in the user's zone", () => {
    mockApi({});
    const at = '2030-03-05T09:30:00.000Z';
    renderModal(['blog', 'linkedin'], makeArticle({ scheduled: { blog: at, linkedin: null } }));
    expect(screen.getByText(/^Blog is scheduled for/)).toHaveTextContent(
      `Blog is scheduled for ${formatDateTime(at, ZONE)} at present.`,
    );
    expect(screen.queryByText(/^LinkedIn is scheduled for/)).not.toBeInTheDocument();
  });
});

describe('ScheduleModal: submitting', () => {
  it("both platforms: two PUTs in parallel with the ISO time, one success toast in the user's zone, list updated, closed", async () => {
    const article = makeArticle();
    const gate = deferred<void>();
    const seen: RecordedRequest[] = [];
    const routes = scheduleRoutes(article);
    const { requests } = mockApi({
      'schedule.set': async (request) => {
        seen.push(request);
        await gate.promise; // both calls are on the wire before either answers
        return routes['schedule.set'](request);
      },
      'articles.unpublished': { articles: [article] },
    });
    const { queryClient, closed } = renderModal(['blog', 'linkedin'], article);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Schedule' }));
    await waitFor(() => expect(seen).toHaveLength(2));
    expect(screen.getByRole('button', { name: /Scheduling/ })).toBeDisabled();
    gate.resolve();

    // The default, 16:40 in Kolkata.
    const at = '2030-03-04T11:10:00.000Z';
    expect(puts(requests).map((r) => r.body)).toEqual([
      { platform: 'blog', datetime: at },
      { platform: 'linkedin', datetime: at },
    ]);
    expect(puts(requests).every((r) => r.credentials === 'include')).toBe(true);
    const time = formatDateTime(at, ZONE);
    expect(time).toMatch(/16:40 GMT\+5:30$/);
    expect(await screen.findByText(`Successfully scheduled blog and LinkedIn for ${time}`)).toBeInTheDocument();
    expect(closed()).toBe(1);
    // The card shows both times at once (the two answers merged), before the refetch.
    const list = queryClient.getQueryData<Article[]>(articleListKey.unpublished)!;
    expect(list[0]!.scheduled).toEqual({ blog: at, linkedin: at });
  });

  it("sends the time the field shows, read on the user's clock (not the browser's)", async () => {
    const article = makeArticle();
    const { requests } = mockApi(scheduleRoutes(article));
    renderModal(['linkedin'], article);
    enter('2030-03-05 09:15');
    expect(hint()).toHaveTextContent(`Goes out ${formatDateTime('2030-03-05T03:45:00Z', ZONE)}.`);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Schedule' }));
    await screen.findByText(/^Successfully scheduled LinkedIn for /);
    // 09:15 in Kolkata is 03:45 UTC (in the browser's Los Angeles it would be 17:15 UTC).
    expect(puts(requests).map((r) => r.body)).toEqual([{ platform: 'linkedin', datetime: '2030-03-05T03:45:00.000Z' }]);
  });

  it("sends a slot picked in the time list as that time in the user's zone", async () => {
    const article = makeArticle();
    const { requests } = mockApi(scheduleRoutes(article));
    renderModal(['blog'], article);
    const user = userEvent.setup();
    await user.click(input());
    await user.click(slot('23:55'));
    await waitFor(() => expect(input().value).toBe('2030-03-04 23:55'));
    await user.click(screen.getByRole('button', { name: 'Schedule' }));
    await screen.findByText(/^Successfully scheduled blog for /);
    expect(puts(requests).map((r) => r.body)).toEqual([{ platform: 'blog', datetime: '2030-03-04T18:25:00.000Z' }]);
  });

  it('"publish at the current time": the minute under way, on a step, is sent as that minute (the server takes it as now)', async () => {
    const article = makeArticle();
    const { requests } = mockApi(scheduleRoutes(article));
    // 10:05:42 UTC, 15:35:42 in Kolkata.
    renderModal(['linkedin'], article, { now: () => new Date('2030-03-04T10:05:42Z') });
    enter('2030-03-04 15:35');
    expect(input().value).toBe('2030-03-04 15:35');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Schedule' }));
    await screen.findByText(/^Successfully scheduled LinkedIn for /);
    expect(puts(requests).map((r) => r.body)).toEqual([{ platform: 'linkedin', datetime: '2030-03-04T10:05:00.000Z' }]);
  });

  it('moves a time skipped by a daylight-saving change forward, in the field and in what is sent', async () => {
    const article = makeArticle();
    const { requests } = mockApi(scheduleRoutes(article));
    // New York's clocks go from 02:00 to 03:00 on 2026-03-08 (the browser's Los Angeles: at its own 02:00).
    const ny = 'America/New_York';
    renderModal(['blog'], article, { timeZone: ny, now: () => new Date('2026-03-01T12:00:00Z') });
    expect(hint()).toHaveTextContent('in your time zone (America/New_York).');
    enter('2026-03-08 02:30');
    expect(input().value).toBe('2026-03-08 03:30');
    expect(hint()).toHaveTextContent(`Goes out ${formatDateTime('2026-03-08T07:30:00Z', ny)}.`);
    expect(formatDateTime('2026-03-08T07:30:00Z', ny)).toMatch(/03:30 EDT$/);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Schedule' }));
    await screen.findByText(/^Successfully scheduled blog for /);
    expect(puts(requests).map((r) => r.body)).toEqual([{ platform: 'blog', datetime: '2026-03-08T07:30:00.000Z' }]);
  });

  it('shows "Error scheduling: {message}" from the server and keeps the dialog open', async () => {
    const article = makeArticle();
    mockApi(
      scheduleRoutes(article, {
        blog: {
          status: 400,
          body: { error: 'Please choose a future date and time.', message: 'Please choose a future date and time.' },
        },
      }),
    );
    const { closed } = renderModal(['blog'], article);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Schedule' }));
    // By its text: the calendar has an alert of its own (its live region, which announces the month).
    const alert = await screen.findByText('Error scheduling: Please choose a future date and time.');
    expect(alert).toHaveAttribute('role', 'alert');
    expect(closed()).toBe(0);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
  });

  it('falls back to "Failed to schedule {platform} publication"; a partial failure keeps only the failed platform', async () => {
    const article = makeArticle();
    const { requests } = mockApi(scheduleRoutes(article, { linkedin: { status: 500, body: null } }));
    const { closed } = renderModal(['blog', 'linkedin'], article);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Error scheduling: Failed to schedule linkedin publication')).toBeInTheDocument();
    expect(await screen.findByText(/^Successfully scheduled blog for /)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Schedule LinkedIn' })).toBeInTheDocument();
    expect(closed()).toBe(0);

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(puts(requests)).toHaveLength(3));
    expect(puts(requests).at(-1)!.body).toMatchObject({ platform: 'linkedin' });
  });

  it('"Invalid scheduling data" when there is nothing to schedule', async () => {
    const { requests } = mockApi({});
    renderModal([]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Invalid scheduling data')).toHaveAttribute('role', 'alert');
    expect(puts(requests)).toHaveLength(0);
  });
});

describe('ScheduleModal: the blog-first bundle', () => {
  it('with the choice, one schedule of the blog version carries the social posts (bundle: true), and no second call', async () => {
    const article = makeArticle();
    const { requests } = mockApi({ ...scheduleRoutes(article), 'articles.unpublished': { articles: [article] } });
    const { closed } = renderModal(['blog', 'linkedin'], article);
    const user = userEvent.setup();
    const choice = screen.getByRole('checkbox', { name: /^Blog first: the social posts wait for the blog post/ });
    expect(choice).not.toBeChecked();
    await user.click(choice);
    await user.click(screen.getByRole('button', { name: 'Schedule' }));
    await waitFor(() => expect(closed()).toBe(1));
    expect(puts(requests).map((r) => r.body)).toEqual([
      { platform: 'blog', datetime: '2030-03-04T11:10:00.000Z', bundle: true },
    ]);
  });

  it('offers no choice for the LinkedIn version alone', () => {
    renderModal(['linkedin']);
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('a bundled article opens with the choice made', () => {
    renderModal(['blog'], makeArticle({ bundle: true }));
    expect(screen.getByRole('checkbox', { name: /^Blog first/ })).toBeChecked();
  });
});
