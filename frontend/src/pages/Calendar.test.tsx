import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Article, CalendarAnswer, CalendarEntry } from '@app/shared';
import CalendarPage from './Calendar';
import { CHANNEL_REGISTRY, channelFor } from '../channels/registry';
import { makeArticle } from '../test/articles';
import { deferred, makeUser, mockApi, renderWithProviders, type MockRoutes, type Reply } from '../test/utils';

// The user's zone (Tokyo, UTC+9) is not the browser's (Los Angeles): every day and hour shown must be Tokyo's.
const USER_ZONE = 'Asia/Tokyo';
const BROWSER_ZONE = 'America/Los_Angeles';
// Wednesday 10 April 2030, 05:00 in Tokyo; still Tuesday 9 April in Los Angeles.
const NOW = new Date('2030-04-09T20:00:00.000Z');

beforeEach(() => {
  vi.stubEnv('TZ', BROWSER_ZONE);
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

const planned = (overrides: Partial<Article> = {}) =>
  makeArticle({
    _id: 'a1',
    id: 'a1',
    title: 'Spring launch',
    // 01:30 on Thursday 11 April in Tokyo; 09:30 on Wednesday 10 April in Los Angeles.
    scheduled: { blog: '2030-04-10T16:30:00.000Z', linkedin: null },
    ...overrides,
  });
const entryOf = (article: Article, overrides: Partial<CalendarEntry> = {}): CalendarEntry => ({
  articleId: article.id,
  platform: 'blog',
  at: article.scheduled.blog!,
  kind: 'scheduled',
  status: 'scheduled',
  title: article.title,
  version: overrides.platform ?? 'blog',
  channel: overrides.platform === 'linkedin' ? 'linkedin' : 'wordpress',
  url: null,
  ...overrides,
});
const answer = (entries: CalendarEntry[], articles: Article[]): CalendarAnswer => ({
  from: '',
  to: '',
  entries,
  articles,
});

function routes(calendar: MockRoutes['articles.calendar'], extra: MockRoutes = {}): MockRoutes {
  return { 'auth.me': { user: makeUser({ timezone: USER_ZONE }) }, 'articles.calendar': calendar, ...extra };
}

const cell = (name: string) => screen.getByRole('gridcell', { name });
const itemIn = (cellName: string, title: RegExp) => within(cell(cellName)).getByRole('button', { name: title });

const dataTransfer = () => ({ setData: vi.fn(), getData: vi.fn(), effectAllowed: 'all', dropEffect: 'none' });

/**
 * An HTML5 drag of `item` onto `target`, let go there, as the browser fires it (jsdom has no DataTransfer of its own):
 * the drop happens only when the target's dragover accepted it (cancelled the event); otherwise the target gets a
 * dragleave to nowhere. Then the item's dragend. Whether the target accepted it.
 */
function drag(item: HTMLElement, target: HTMLElement): boolean {
  const transfer = dataTransfer();
  fireEvent.dragStart(item, { dataTransfer: transfer });
  const accepted = !fireEvent.dragOver(target, { dataTransfer: transfer });
  if (accepted) fireEvent.drop(target, { dataTransfer: transfer });
  else fireEvent.dragLeave(target, { dataTransfer: transfer, relatedTarget: null });
  fireEvent.dragEnd(item, { dataTransfer: transfer });
  return accepted;
}

describe('Calendar: month and week in the user zone', () => {
  it("lays the month out on the user's clock: their today, the item on its Tokyo day and time, the range asked for", async () => {
    const article = planned();
    const { requests } = mockApi(routes(answer([entryOf(article)], [article])));
    renderWithProviders(<CalendarPage />, { route: '/calendar' });

    expect(await screen.findByRole('heading', { name: 'April 2030' })).toBeInTheDocument();
    // Today is Wednesday 10 April in Tokyo (the browser's clock still says the 9th).
    const today = await screen.findByRole('gridcell', { name: 'Wednesday, April 10, 2030, today' });
    expect(today).toHaveAttribute('aria-current', 'date');
    expect(screen.getAllByRole('gridcell')).toHaveLength(42);
    // Six weeks from Monday 1 April, Tokyo midnight to Tokyo midnight.
    const call = requests.find((r) => r.route === 'articles.calendar')!;
    expect(call.path).toBe(
      `/api/calendar?from=${encodeURIComponent('2030-03-31T15:00:00.000Z')}&to=${encodeURIComponent('2030-05-12T15:00:00.000Z')}`,
    );

    const item = await waitFor(() => itemIn('Thursday, April 11, 2030', /Spring launch/));
    expect(item).toHaveAccessibleName('Spring launch, WordPress, Scheduled 01:30, can be moved');
    expect(item).toHaveClass('calendar-item--accent');
    expect(item).toHaveAttribute('draggable', 'true');
    expect(within(cell('Wednesday, April 10, 2030, today')).queryByRole('button')).toBeNull();
  });

  it('the week view puts each platform in its Tokyo hour with its status colour; a published one is not movable', async () => {
    const article = planned({
      linkedin: {
        content: 'Post',
        publishedToLinkedIn: true,
        lastPublished: '2030-04-09T23:15:00.000Z',
        linkedinPostUrl: 'https://www.linkedin.com/feed/update/urn:li:share:1',
      },
    });
    const { requests } = mockApi(
      routes(
        answer(
          [
            entryOf(article, {
              platform: 'linkedin',
              version: 'linkedin',
              at: '2030-04-09T23:15:00.000Z',
              kind: 'published',
              status: 'published',
              url: 'https://www.linkedin.com/feed/update/urn:li:share:1',
              channel: 'linkedin',
            }),
            entryOf(article),
          ],
          [article],
        ),
      ),
    );
    renderWithProviders(<CalendarPage />, { route: '/calendar?view=week&date=2030-04-10' });
    expect(await screen.findByRole('heading', { name: /Apr 8.*14, 2030/ })).toBeInTheDocument();
    const published = await waitFor(() => itemIn('Wednesday, April 10, 2030, 08:00', /Spring launch, LinkedIn/));
    expect(published).toHaveAccessibleName('Spring launch, LinkedIn, Published 08:15');
    expect(published).toHaveClass('calendar-item--success');
    expect(published).toHaveAttribute('draggable', 'false');
    // The title, cut to the cell's width, shows whole under the pointer.
    expect(published).toHaveAttribute('title', 'Spring launch');
    expect(itemIn('Thursday, April 11, 2030, 01:00', /Spring launch, WordPress/)).toHaveAttribute(
      'title',
      'Spring launch: drag to another day or time to reschedule',
    );
    expect(itemIn('Thursday, April 11, 2030, 01:00', /Spring launch, WordPress/)).toHaveClass('calendar-item--accent');
    expect(requests.find((r) => r.route === 'articles.calendar')!.path).toBe(
      `/api/calendar?from=${encodeURIComponent('2030-04-07T15:00:00.000Z')}&to=${encodeURIComponent('2030-04-14T15:00:00.000Z')}`,
    );
  });

  it('a published entry shows the channel it went to: one the SPA does not know by its id and its first letters', async () => {
    const article = planned({ scheduled: { blog: null, linkedin: null } });
    const entry = entryOf(article, {
      at: '2030-04-09T23:20:00.000Z',
      kind: 'published',
      status: 'published',
      url: null,
      channel: 'extra',
    });
    mockApi(routes(answer([entry], [article])));
    renderWithProviders(<CalendarPage />, { route: '/calendar?view=week&date=2030-04-10' });
    const item = await waitFor(() => itemIn('Wednesday, April 10, 2030, 08:00', /Spring launch, extra/));
    expect(item).toHaveAccessibleName('Spring launch, extra, Published 08:20');
    expect(item).toHaveTextContent(/^ex/);
  });

  it('previous, next and today move the range; the view switch keeps the date', async () => {
    const { requests } = mockApi(routes(answer([], [])));
    const user = userEvent.setup();
    renderWithProviders(<CalendarPage />, { route: '/calendar' });
    await screen.findByRole('heading', { name: 'April 2030' });
    await user.click(screen.getByRole('button', { name: /Next month/ }));
    expect(screen.getByRole('heading', { name: 'May 2030' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Previous month/ }));
    await user.click(screen.getByRole('button', { name: /Previous month/ }));
    expect(screen.getByRole('heading', { name: 'March 2030' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Today' }));
    expect(screen.getByRole('heading', { name: 'April 2030' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Week' }));
    expect(screen.getByRole('button', { name: 'Week' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('heading', { name: /Apr 8.*14, 2030/ })).toBeInTheDocument();
    await waitFor(() =>
      expect([
        ...new Set(
          requests
            .filter((r) => r.route === 'articles.calendar')
            .map((r) => new URL(r.path, 'http://app').searchParams.get('from')),
        ),
      ]).toEqual([
        '2030-03-31T15:00:00.000Z', // April: from Monday 1 April
        '2030-04-28T15:00:00.000Z', // May: from Monday 29 April
        '2030-02-24T15:00:00.000Z', // March: from Monday 25 February
        '2030-04-07T15:00:00.000Z', // the week of 10 April
      ]),
    );
  }, 20_000);
});

describe('Calendar: the week opens at 08:00', () => {
  it('a day with items before the first hour in view says how many are above; the marker shows the first of them', async () => {
    const article = planned({ scheduled: { blog: '2030-04-10T16:30:00.000Z', linkedin: '2030-04-10T21:00:00.000Z' } });
    const late = planned({
      _id: 'a2',
      id: 'a2',
      title: 'Late news',
      scheduled: { blog: '2030-04-12T01:00:00.000Z', linkedin: null },
    });
    mockApi(
      routes(
        answer(
          [
            entryOf(article), // 01:30 Thursday
            entryOf(article, { platform: 'linkedin', at: '2030-04-10T21:00:00.000Z' }), // 06:00 Thursday
            entryOf(late), // 10:00 Friday
          ],
          [article, late],
        ),
      ),
    );
    renderWithProviders(<CalendarPage />, { route: '/calendar?view=week&date=2030-04-10' });
    await waitFor(() => itemIn('Thursday, April 11, 2030, 01:00', /Spring launch, WordPress/));
    const thursday = screen.getByRole('columnheader', { name: 'Thursday, April 11, 2030' });
    const marker = within(thursday).getByRole('button', { name: '2 earlier on Thursday, April 11, 2030: show' });
    expect(marker).toHaveTextContent('↑ 2 earlier');
    // Friday's item is at 10:00, in view; no other day has any.
    expect(
      within(screen.getByRole('columnheader', { name: 'Friday, April 12, 2030' })).queryByRole('button'),
    ).toBeNull();
    expect(screen.getAllByRole('button', { name: /earlier on/ })).toHaveLength(1);

    await userEvent.setup().click(marker);
    expect(itemIn('Thursday, April 11, 2030, 01:00', /Spring launch, WordPress/)).toHaveFocus();
  });

  it("a now-line crosses today's column at the current minute; other weeks have none", async () => {
    vi.setSystemTime(new Date('2030-04-09T20:45:00.000Z')); // 05:45 in Tokyo
    mockApi(routes(answer([], [])));
    const user = userEvent.setup();
    renderWithProviders(<CalendarPage />, { route: '/calendar?view=week&date=2030-04-10' });
    const line = await within(
      await screen.findByRole('gridcell', { name: 'Wednesday, April 10, 2030, 05:00' }),
    ).findByRole('img', { name: 'Now, 05:45' });
    expect(line).toHaveStyle({ top: '75%' });
    expect(screen.getAllByRole('img', { name: /^Now/ })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: /Next week/ }));
    await screen.findByRole('heading', { name: /Apr 15.*21, 2030/ });
    expect(screen.queryByRole('img', { name: /^Now/ })).toBeNull();
  });
});

describe('Calendar: states', () => {
  it('shows loading, then says when the month is empty', async () => {
    const reply = deferred<Reply<'articles.calendar'>>();
    mockApi(routes(() => reply.promise));
    renderWithProviders(<CalendarPage />, { route: '/calendar' });
    expect(await screen.findByText('Loading the calendar...')).toBeInTheDocument();
    reply.resolve(answer([], []));
    expect(await screen.findByText(/Nothing is scheduled or published this month\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Schedule an article' })).toHaveAttribute('href', '/schedule');
  });

  it('shows the failure with Try again, which loads it again', async () => {
    let calls = 0;
    const article = planned();
    mockApi(
      routes(() => {
        calls += 1;
        return calls === 1 ? { status: 500, body: null } : answer([entryOf(article)], [article]);
      }),
    );
    renderWithProviders(<CalendarPage />, { route: '/calendar' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load the calendar');
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: /Spring launch, WordPress/ })).toBeInTheDocument();
  });
});

describe('Calendar: an entry per channel', () => {
  // From the registry: a second channel of the blog version, and a channel with a version of its own.
  const second = CHANNEL_REGISTRY.find((channel) => channel.also && !channel.ownVersion)!;
  const own = CHANNEL_REGISTRY.find((channel) => channel.ownVersion)!;
  const blogChannel = channelFor('blog');

  it("names each entry's channel with its registry tag; dragging a second blog channel's item moves the blog schedule it follows", async () => {
    const postUrl = 'https://posts.example.com/1';
    const article = planned({
      posts: { [own.id]: { id: 'p1', url: postUrl, publishedAt: '2030-04-09T23:20:00.000Z' } },
    });
    let at = article.scheduled.blog!;
    const entries = () => [
      entryOf(article, {
        version: own.id,
        channel: own.id,
        at: '2030-04-09T23:20:00.000Z',
        kind: 'published',
        status: 'published',
        url: postUrl,
      }),
      entryOf(article, { at }),
      entryOf(article, { at, channel: second.id }),
    ];
    const { requests } = mockApi(
      routes(() => answer(entries(), [article]), {
        'schedule.set': (req) => {
          at = (req.body as { datetime: string }).datetime;
          return {
            success: true,
            article: { ...article, scheduled: { blog: at, linkedin: null } },
            scheduledFor: at,
          };
        },
      }),
    );
    renderWithProviders(<CalendarPage />, { route: '/calendar' });
    const name = (channel: { label: string }) => new RegExp(`Spring launch, ${channel.label},`);
    const first = await waitFor(() => itemIn('Thursday, April 11, 2030', name(blogChannel)));
    const joined = itemIn('Thursday, April 11, 2030', name(second));
    const posted = itemIn('Wednesday, April 10, 2030, today', name(own));
    expect(first).toHaveAccessibleName(`Spring launch, ${blogChannel.label}, Scheduled 01:30, can be moved`);
    expect(joined).toHaveAccessibleName(`Spring launch, ${second.label}, Scheduled 01:30, can be moved`);
    expect(posted).toHaveAccessibleName(`Spring launch, ${own.label}, Published 08:20`);
    for (const [item, channel] of [
      [first, blogChannel],
      [joined, second],
      [posted, own],
    ] as const) {
      const tag = item.querySelector<HTMLElement>('.channel-tag')!;
      expect(tag).toHaveTextContent(channel.tag.mark);
      expect(tag.style.getPropertyValue('--tag-bg')).toBe(channel.tag.light.background);
      expect(tag.style.getPropertyValue('--tag-text')).toBe(channel.tag.light.text);
      expect(tag.style.getPropertyValue('--tag-bg-dark')).toBe(channel.tag.dark.background);
      expect(tag.style.getPropertyValue('--tag-text-dark')).toBe(channel.tag.dark.text);
    }
    expect(second.tag.light.background).not.toBe(blogChannel.tag.light.background);

    drag(joined, cell('Tuesday, April 16, 2030'));
    await waitFor(() => expect(requests.filter((r) => r.route === 'schedule.set')).toHaveLength(1));
    expect(requests.find((r) => r.route === 'schedule.set')).toMatchObject({
      path: '/api/articles/a1/schedule',
      body: { platform: 'blog', datetime: '2030-04-15T16:30:00.000Z' },
    });
    // The schedule's channels move together; the published post stays.
    await waitFor(() => itemIn('Tuesday, April 16, 2030', name(second)));
    expect(itemIn('Tuesday, April 16, 2030', name(blogChannel))).toBeInTheDocument();
    expect(within(cell('Thursday, April 11, 2030')).queryByRole('button')).toBeNull();
    expect(itemIn('Wednesday, April 10, 2030, today', name(own))).toBeInTheDocument();
    expect(await screen.findByText(/Rescheduled "Spring launch" \(Blog\) to/)).toBeInTheDocument();
  });
});

describe('Calendar: a channel’s own version', () => {
  const own = CHANNEL_REGISTRY.find((channel) => channel.ownVersion)!;

  it('its slot is its own entry; a drag moves its own schedule and the toast names its version', async () => {
    const ownAt = '2030-04-10T16:30:00.000Z';
    const article = planned({ scheduled: { blog: null, linkedin: null, [own.id]: ownAt } });
    let at = ownAt;
    const { requests } = mockApi(
      routes(() => answer([entryOf(article, { platform: own.id, version: own.id, channel: own.id, at })], [article]), {
        'schedule.set': (req) => {
          at = (req.body as { datetime: string }).datetime;
          return {
            success: true,
            article: { ...article, scheduled: { ...article.scheduled, [own.id]: at } },
            scheduledFor: at,
          };
        },
      }),
    );
    renderWithProviders(<CalendarPage />, { route: '/calendar' });
    const item = await waitFor(() => itemIn('Thursday, April 11, 2030', new RegExp(`Spring launch, ${own.label},`)));
    expect(item).toHaveAccessibleName(`Spring launch, ${own.label}, Scheduled 01:30, can be moved`);

    drag(item, cell('Tuesday, April 16, 2030'));
    await waitFor(() => expect(requests.filter((r) => r.route === 'schedule.set')).toHaveLength(1));
    expect(requests.find((r) => r.route === 'schedule.set')).toMatchObject({
      path: '/api/articles/a1/schedule',
      body: { platform: own.id, datetime: '2030-04-15T16:30:00.000Z' },
    });
    expect(
      await screen.findByText(new RegExp(`Rescheduled "Spring launch" \\(${own.versionLabel}\\) to`)),
    ).toBeInTheDocument();
  });
});

describe('Calendar: rescheduling', () => {
  it('a drag to another day keeps the time of day, sends the schedule call, and Undo puts the old time back', async () => {
    const article = planned();
    let current = entryOf(article);
    const { requests } = mockApi(
      routes(() => answer([current], [article]), {
        'schedule.set': (req) => {
          const body = req.body as { platform: 'blog'; datetime: string };
          current = { ...current, at: body.datetime };
          return {
            success: true,
            article: { ...article, scheduled: { blog: body.datetime, linkedin: null } },
            scheduledFor: body.datetime,
          };
        },
      }),
    );
    renderWithProviders(<CalendarPage />, { route: '/calendar' });
    const item = await waitFor(() => itemIn('Thursday, April 11, 2030', /Spring launch/));
    drag(item, cell('Tuesday, April 16, 2030'));

    // 01:30 on the 16th in Tokyo.
    await waitFor(() => expect(requests.filter((r) => r.route === 'schedule.set')).toHaveLength(1));
    expect(requests.find((r) => r.route === 'schedule.set')).toMatchObject({
      method: 'PUT',
      path: '/api/articles/a1/schedule',
      body: { platform: 'blog', datetime: '2030-04-15T16:30:00.000Z' },
    });
    await waitFor(() => itemIn('Tuesday, April 16, 2030', /Spring launch/));
    const toast = await screen.findByText(/Rescheduled "Spring launch" \(Blog\) to/);
    expect(toast).toHaveTextContent(/Apr 16, 2030, 01:30/);

    await userEvent.setup().click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(requests.filter((r) => r.route === 'schedule.set')).toHaveLength(2));
    expect(requests.filter((r) => r.route === 'schedule.set')[1]!.body).toEqual({
      platform: 'blog',
      datetime: '2030-04-10T16:30:00.000Z',
    });
    expect(await screen.findByText(/"Spring launch" is back at Apr 11, 2030, 01:30/)).toBeInTheDocument();
    await waitFor(() => itemIn('Thursday, April 11, 2030', /Spring launch/));
  });

  it('rescheduled from its card with the keyboard, the item keeps the focus in its new day', async () => {
    const article = planned();
    let current = entryOf(article);
    mockApi(
      routes(() => answer([current], [article]), {
        'schedule.set': (req) => {
          const body = req.body as { platform: 'blog'; datetime: string };
          current = { ...current, at: body.datetime };
          return {
            success: true,
            article: { ...article, scheduled: { blog: body.datetime, linkedin: null } },
            scheduledFor: body.datetime,
          };
        },
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<CalendarPage />, { route: '/calendar' });
    const item = await waitFor(() => itemIn('Thursday, April 11, 2030', /Spring launch/));
    act(() => item.focus());
    await user.keyboard('{Enter}');
    const card = await screen.findByRole('dialog', { name: /WordPress · Apr 11, 2030, 01:30/ });
    await user.click(within(card).getByRole('button', { name: 'Reschedule Blog' }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule Blog' });
    const field = within(dialog).getByLabelText('Date and time');
    await user.clear(field);
    await user.type(field, '2030-04-16 01:30', { skipClick: true });
    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(itemIn('Tuesday, April 16, 2030', /Spring launch/)).toHaveFocus());
  }, 20_000);

  it('in the week view a drop on an hour moves it to that hour of that day', async () => {
    const article = planned();
    const { requests } = mockApi(
      routes(answer([entryOf(article)], [article]), {
        'schedule.set': (req) => ({
          success: true,
          article,
          scheduledFor: (req.body as { datetime: string }).datetime,
        }),
      }),
    );
    renderWithProviders(<CalendarPage />, { route: '/calendar?view=week&date=2030-04-10' });
    const item = await waitFor(() => itemIn('Thursday, April 11, 2030, 01:00', /Spring launch/));
    drag(item, cell('Friday, April 12, 2030, 14:00'));
    await waitFor(() =>
      expect(requests.find((r) => r.route === 'schedule.set')?.body).toEqual({
        platform: 'blog',
        datetime: '2030-04-12T05:30:00.000Z', // 14:30 in Tokyo
      }),
    );
  });

  it("a move the server refuses shows the server's message and the item stays where it was", async () => {
    const article = planned();
    const refusal = 'WordPress (blog) is already published for this article, so it cannot be scheduled again.';
    mockApi(
      routes(answer([entryOf(article)], [article]), {
        'schedule.set': { status: 409, body: { error: refusal, message: refusal } },
      }),
    );
    renderWithProviders(<CalendarPage />, { route: '/calendar' });
    const item = await waitFor(() => itemIn('Thursday, April 11, 2030', /Spring launch/));
    expect(drag(item, cell('Tuesday, April 16, 2030'))).toBe(true);
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    await waitFor(() => itemIn('Thursday, April 11, 2030', /Spring launch/));
    expect(within(cell('Tuesday, April 16, 2030')).queryByRole('button')).toBeNull();
  });

  it('a past day, or today before the time has come, refuses the drop while the item is over it: nothing is sent, the toast says why', async () => {
    const article = planned();
    const { requests } = mockApi(routes(answer([entryOf(article)], [article])));
    renderWithProviders(<CalendarPage />, { route: '/calendar' });
    const item = await waitFor(() => itemIn('Thursday, April 11, 2030', /Spring launch/));

    // Over Monday 8 April: the day says it is in the past and does not take the item; the past days are shaded.
    const transfer = dataTransfer();
    fireEvent.dragStart(item, { dataTransfer: transfer });
    const past = cell('Monday, April 8, 2030');
    expect(fireEvent.dragOver(past, { dataTransfer: transfer })).toBe(true); // not cancelled: no drop there
    expect(transfer.dropEffect).toBe('none');
    expect(past).toHaveClass('is-drop-refused', 'is-past');
    expect(within(past).getByText('In the past')).toBeInTheDocument();
    expect(cell('Monday, April 1, 2030')).toHaveClass('is-past');
    // Today at 01:30 is gone too (it is 05:00 in Tokyo); tomorrow is not.
    expect(cell('Wednesday, April 10, 2030, today')).toHaveClass('is-past');
    expect(cell('Friday, April 12, 2030')).not.toHaveClass('is-past');
    // Moving on over the days of the month before (an item's day, which it enters first), no toast yet.
    fireEvent.dragLeave(past, { dataTransfer: transfer, relatedTarget: cell('Monday, April 1, 2030') });
    fireEvent.dragOver(cell('Monday, April 1, 2030'), { dataTransfer: transfer });
    expect(past).not.toHaveClass('is-drop-refused');
    expect(screen.queryByText('Please choose a future date and time.')).toBeNull();
    // Let go there: the browser sends that day a dragleave to nowhere, then the item its dragend.
    fireEvent.dragLeave(cell('Monday, April 1, 2030'), { dataTransfer: transfer, relatedTarget: null });
    fireEvent.dragEnd(item, { dataTransfer: transfer });

    expect(await screen.findByText('Please choose a future date and time.')).toBeInTheDocument();
    expect(within(cell('Monday, April 1, 2030')).queryByText('In the past')).toBeNull();
    expect(drag(itemIn('Thursday, April 11, 2030', /Spring launch/), cell('Wednesday, April 10, 2030, today'))).toBe(
      false,
    );
    expect(requests.filter((r) => r.route === 'schedule.set')).toHaveLength(0);
    expect(itemIn('Thursday, April 11, 2030', /Spring launch/)).toBeInTheDocument();
  });

  it('in the week view the hours of today already gone refuse the drop; a later one takes it', async () => {
    const article = planned();
    const { requests } = mockApi(
      routes(answer([entryOf(article)], [article]), {
        'schedule.set': (req) => ({
          success: true,
          article,
          scheduledFor: (req.body as { datetime: string }).datetime,
        }),
      }),
    );
    renderWithProviders(<CalendarPage />, { route: '/calendar?view=week&date=2030-04-10' });
    const item = await waitFor(() => itemIn('Thursday, April 11, 2030, 01:00', /Spring launch/));
    // 04:30 today is gone (it is 05:00), 05:30 is ahead.
    expect(drag(item, cell('Wednesday, April 10, 2030, 04:00'))).toBe(false);
    expect(await screen.findByText('Please choose a future date and time.')).toBeInTheDocument();
    expect(requests.filter((r) => r.route === 'schedule.set')).toHaveLength(0);
    expect(drag(item, cell('Wednesday, April 10, 2030, 05:00'))).toBe(true);
    await waitFor(() =>
      expect(requests.find((r) => r.route === 'schedule.set')?.body).toEqual({
        platform: 'blog',
        datetime: '2030-04-09T20:30:00.000Z', // 05:30 in Tokyo
      }),
    );
  });

  it('the keyboard moves through days with the arrows, Enter opens the item, and Reschedule opens the date picker', async () => {
    const article = planned();
    mockApi(routes(answer([entryOf(article)], [article])));
    const user = userEvent.setup();
    renderWithProviders(<CalendarPage />, { route: '/calendar' });
    await waitFor(() => itemIn('Thursday, April 11, 2030', /Spring launch/));

    // One tab stop: today's cell.
    const today = cell('Wednesday, April 10, 2030, today');
    expect(today).toHaveAttribute('tabindex', '0');
    expect(screen.getAllByRole('gridcell').filter((c) => c.tabIndex === 0)).toHaveLength(1);
    act(() => today.focus());
    await user.keyboard('{ArrowDown}');
    expect(cell('Wednesday, April 17, 2030')).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowRight}');
    expect(cell('Thursday, April 11, 2030')).toHaveFocus();
    await user.keyboard('{Enter}');
    const item = itemIn('Thursday, April 11, 2030', /Spring launch/);
    expect(item).toHaveFocus();
    await user.keyboard('{Enter}');

    // The card actions, as the Schedule page offers them.
    const dialog = await screen.findByRole('dialog', { name: /WordPress · Apr 11, 2030, 01:30/ });
    expect(within(dialog).getByRole('article', { name: 'Spring launch' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Reschedule Blog' }));
    expect(await screen.findByRole('dialog', { name: 'Schedule Blog' })).toBeInTheDocument();
    expect(screen.getByLabelText('Date and time')).toBeInTheDocument();
  }, 20_000);
});
