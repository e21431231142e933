import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Article, Platform } from '@app/shared';
import ScheduleModal from './ScheduleModal';
import { articleListKey } from '../../hooks/useArticleLists';
import { toLocalInput } from '../../lib/schedulePicker';
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

// A fixed clock: 2030-03-04 10:07:42 on the browser's local clock.
const NOW = new Date(2030, 2, 4, 10, 7, 42);
const clock = () => new Date(NOW.getTime());
const ZONE = 'America/New_York';

// react-datepicker's time list watches its height; jsdom has no ResizeObserver.
beforeEach(() => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});

/** The picker's text: yyyy-MM-dd HH:mm. */
const shown = (date: Date) => toLocalInput(date).replace('T', ' ');

function renderModal(platforms: Platform[], article = makeArticle()) {
  let closed = 0;
  const view = renderWithProviders(
    <ScheduleModal article={article} platforms={platforms} timeZone={ZONE} onClose={() => closed++} now={clock} />,
  );
  view.queryClient.setQueryData(articleListKey.unpublished, [article]);
  return { ...view, closed: () => closed };
}

const input = () => screen.getByLabelText('Date and time') as HTMLInputElement;
const setInput = (text: string) => {
  fireEvent.change(input(), { target: { value: text } });
};

/** Both schedule calls answer with the article as their own write left it. */
function scheduleRoutes(article: Article, override: Partial<Record<'blog' | 'linkedin', Reply<'schedule.set'>>> = {}) {
  return {
    'schedule.set': ({ body: { platform, datetime } }: MockRequest<'schedule.set'>): Reply<'schedule.set'> =>
      override[platform] ?? {
        success: true,
        article: { ...article, scheduled: { ...article.scheduled, [platform]: datetime } },
        scheduledFor: datetime,
      },
  };
}

describe('ScheduleModal: the picker', () => {
  it("defaults to one hour from now, rounded up to the next 5 minutes, and says when it goes out in the user's zone", () => {
    mockApi({});
    renderModal(['blog', 'linkedin']);
    const dialog = screen.getByRole('dialog', { name: 'Schedule blog and LinkedIn' });
    expect(within(dialog).getByText('Automate your content calendar')).toBeInTheDocument();
    expect(input().value).toBe(shown(new Date(2030, 2, 4, 11, 10)));
    expect(input()).toHaveFocus();
    const goesOut = formatDateTime(new Date(2030, 2, 4, 11, 10).toISOString(), ZONE);
    expect(within(dialog).getByText(goesOut)).toBeInTheDocument();
  });

  it('offers a 24-hour time list in 5-minute steps (00:00 … 23:55) and a calendar from today', async () => {
    mockApi({});
    renderModal(['blog']);
    expect(screen.getByRole('dialog', { name: 'Schedule Blog' })).toBeInTheDocument();
    await userEvent.setup().click(input());
    const times = [...document.querySelectorAll('.react-datepicker__time-list-item')].map((li) => li.textContent);
    expect(times).toHaveLength(24 * 12);
    expect(times.slice(0, 3)).toEqual(['00:00', '00:05', '00:10']);
    expect(times).toContain('13:35');
    expect(times.at(-1)).toBe('23:55');
    // minDate today: yesterday cannot be picked.
    const yesterday = document.querySelector('.react-datepicker__day--003:not(.react-datepicker__day--outside-month)');
    expect(yesterday).toHaveAttribute('aria-disabled', 'true');
    const today = document.querySelector('.react-datepicker__day--004:not(.react-datepicker__day--outside-month)');
    expect(today).toHaveAttribute('aria-disabled', 'false');
  });

  it('clamps a picked time earlier than now to now', async () => {
    mockApi({});
    renderModal(['blog']);
    const user = userEvent.setup();
    await user.click(input());
    // 10:05 today is before 10:07:42: it becomes now.
    const item = [...document.querySelectorAll('.react-datepicker__time-list-item')].find(
      (li) => li.textContent === '10:05',
    )!;
    await user.click(item);
    await waitFor(() => expect(input().value).toBe('2030-03-04 10:07'));

    // Typed: the same.
    setInput('2030-03-04 09:00');
    fireEvent.blur(input());
    await waitFor(() => expect(input().value).toBe('2030-03-04 10:07'));

    // A later time is kept as it is.
    setInput('2030-03-04 16:45');
    fireEvent.blur(input());
    await waitFor(() => expect(input().value).toBe('2030-03-04 16:45'));
  });

  it('shows "Please select a valid date and time." when the field is empty, and sends nothing', async () => {
    const { requests } = mockApi({});
    renderModal(['blog']);
    setInput('');
    fireEvent.blur(input());
    await userEvent.setup().click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Please select a valid date and time.')).toBeInTheDocument();
    expect(input()).toHaveAttribute('aria-invalid', 'true');
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
  });

  it('shows "Please choose a future date and time." when the chosen minute has passed by the time of submitting', async () => {
    const { requests } = mockApi({});
    let t = NOW.getTime();
    const moving = () => new Date(t);
    renderWithProviders(
      <ScheduleModal article={makeArticle()} platforms={['blog']} timeZone={ZONE} onClose={() => {}} now={moving} />,
    );
    setInput('2030-03-04 10:30');
    fireEvent.blur(input());
    await waitFor(() => expect(input().value).toBe('2030-03-04 10:30'));
    t += 60 * 60_000; // the person left the dialog open for an hour
    await userEvent.setup().click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Please choose a future date and time.')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
  });
});

describe('ScheduleModal: rescheduling', () => {
  it("shows the time a platform is scheduled for at present, in the user's zone", () => {
    mockApi({});
    const at = new Date(2030, 2, 5, 9, 30).toISOString();
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

    const at = new Date(2030, 2, 4, 11, 10).toISOString();
    const puts = requests.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.body)).toEqual([
      { platform: 'blog', datetime: at },
      { platform: 'linkedin', datetime: at },
    ]);
    expect(puts.every((r) => r.credentials === 'include')).toBe(true);
    const time = formatDateTime(at, ZONE);
    expect(time).toMatch(/E[SD]T$/);
    expect(await screen.findByText(`Successfully scheduled blog and LinkedIn for ${time}`)).toBeInTheDocument();
    expect(closed()).toBe(1);
    // The card shows both times at once (the two answers merged), before the refetch.
    const list = queryClient.getQueryData<Article[]>(articleListKey.unpublished)!;
    expect(list[0]!.scheduled).toEqual({ blog: at, linkedin: at });
  });

  it('"publish at the current time": a time clamped to now is sent as now', async () => {
    const article = makeArticle();
    const { requests } = mockApi(scheduleRoutes(article));
    renderModal(['linkedin'], article);
    setInput('2030-03-04 10:00');
    fireEvent.blur(input());
    await waitFor(() => expect(input().value).toBe('2030-03-04 10:07'));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Schedule' }));
    await screen.findByText(/^Successfully scheduled LinkedIn for /);
    expect(requests.find((r) => r.method === 'PUT')!.body).toEqual({
      platform: 'linkedin',
      datetime: NOW.toISOString(),
    });
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
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error scheduling: Please choose a future date and time.');
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
    await waitFor(() => expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(3));
    expect(requests.filter((r) => r.method === 'PUT').at(-1)!.body).toMatchObject({ platform: 'linkedin' });
  });

  it('"Invalid scheduling data" when there is nothing to schedule', async () => {
    const { requests } = mockApi({});
    renderModal([]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid scheduling data');
    expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
  });
});
