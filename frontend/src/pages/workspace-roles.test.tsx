import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Article, CalendarEntry, WorkspaceRole, WorkspaceSummary } from '@app/shared';
import App from '../App';
import CalendarPage from './Calendar';
import CreatePage from './Create';
import SchedulePage from './Schedule';
import SettingsPage from './Settings';
import SheetsImportPage from './SheetsImport';
import { setCurrentWorkspaceId } from '../lib/workspace';
import { makeArticle } from '../test/articles';
import { makeUser, mockApi, renderWithProviders, type MockRoutes } from '../test/utils';

/**
 * docs/product.md (Workspaces): in a team workspace the SPA shows only what the current role may do, as the route
 * table says (shared/src/api/roles.ts): the server refuses the rest anyway (403), so a control it would refuse is
 * not shown.
 */
const user = makeUser();
const personal: WorkspaceSummary = { id: user._id, name: 'Personal', personal: true, role: 'owner' };
const team = (role: WorkspaceRole): WorkspaceSummary => ({
  id: 'team-1',
  name: 'Acme Marketing',
  personal: false,
  role,
});

// A fixed "now": the scheduled times below are ahead of it whatever day the tests run.
const NOW = new Date('2030-04-09T20:00:00.000Z');
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  setCurrentWorkspaceId('team-1');
});
afterEach(() => {
  vi.useRealTimers();
  setCurrentWorkspaceId(undefined);
});

const notScheduled = makeArticle({ _id: 'a1', id: 'a1', title: 'Fresh idea' });
const planned = makeArticle({
  _id: 'a2',
  id: 'a2',
  title: 'Planned post',
  scheduled: { blog: '2030-04-10T16:30:00.000Z', linkedin: null },
});

function workspaceRoutes(role: WorkspaceRole, extra: MockRoutes = {}): MockRoutes {
  return { 'auth.me': { user }, 'workspaces.list': { workspaces: [personal, team(role)] }, ...extra };
}

const card = (title: string) => screen.getByRole('article', { name: title });
const buttonsIn = (element: HTMLElement) =>
  within(element)
    .queryAllByRole('button')
    .map((b) => b.textContent?.trim() ?? '');

async function scheduleAs(role: WorkspaceRole) {
  mockApi(workspaceRoutes(role, { 'articles.unpublished': { articles: [notScheduled, planned] } }));
  renderWithProviders(<SchedulePage />, { route: '/schedule' });
  await screen.findByRole('article', { name: 'Planned post' });
  // The role is known once the workspace list is in (until then the most restrictive applies).
  if (role !== 'reviewer') await waitFor(() => expect(buttonsIn(card('Planned post'))).toContain('Edit Planned post'));
}

describe('Schedule: the actions of the role', () => {
  it.each(['owner', 'editor'] as const)('an %s schedules, reschedules and publishes', async (role) => {
    await scheduleAs(role);
    await waitFor(() => expect(buttonsIn(card('Fresh idea'))).toContain('Schedule Blog'));
    expect(buttonsIn(card('Planned post'))).toEqual(
      expect.arrayContaining(['Publish Now to WordPress', 'Reschedule Blog', 'Schedule LinkedIn']),
    );
    expect(screen.getByRole('button', { name: 'Create New Article' })).toBeVisible();
  });

  it('a writer schedules and reschedules, edits and creates, but sees no Publish Now', async () => {
    await scheduleAs('writer');
    await waitFor(() => expect(buttonsIn(card('Fresh idea'))).toContain('Schedule Blog'));
    expect(buttonsIn(card('Planned post'))).toEqual(expect.arrayContaining(['Reschedule Blog', 'Schedule LinkedIn']));
    for (const title of ['Fresh idea', 'Planned post'])
      expect(buttonsIn(card(title)).filter((b) => /^Publish Now/.test(b))).toEqual([]);
    expect(screen.getByRole('button', { name: 'Create New Article' })).toBeVisible();
    const mode = within(card('Planned post')).getByRole('group', { name: /posting mode/i });
    expect(mode).toBeEnabled();
  });

  it('a reviewer reads: no actions, View instead of Edit, the posting mode shown but not changed', async () => {
    await scheduleAs('reviewer');
    await waitFor(() => expect(buttonsIn(card('Planned post'))).toContain('View Planned post'));
    for (const title of ['Fresh idea', 'Planned post'])
      expect(buttonsIn(card(title)).filter((b) => /^(Schedule|Reschedule|Publish Now|Edit)/.test(b))).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Create New Article' })).toBeNull();
    expect(within(card('Planned post')).getByRole('group', { name: /posting mode/i })).toBeDisabled();
  });
});

describe('Calendar: moving an item is scheduling it', () => {
  const entry: CalendarEntry = {
    articleId: 'a2',
    platform: 'blog',
    at: planned.scheduled.blog!,
    kind: 'scheduled',
    status: 'scheduled',
    title: planned.title,
    url: null,
    version: 'blog',
    channel: 'wordpress',
  };
  const calendar = { 'articles.calendar': { from: '', to: '', entries: [entry], articles: [planned] } };

  it.each([
    ['editor', 'true'],
    ['writer', 'true'],
    ['reviewer', 'false'],
  ] as const)('an item can be dragged by an editor or writer, not by a reviewer (%s)', async (role, draggable) => {
    mockApi(workspaceRoutes(role, calendar));
    renderWithProviders(<CalendarPage />, { route: '/calendar' });
    const item = await screen.findByRole('button', { name: /^Planned post, WordPress/ });
    await waitFor(() => expect(item).toHaveAttribute('draggable', draggable));
    expect(item.getAttribute('aria-label')?.endsWith('can be moved')).toBe(draggable === 'true');
    await userEvent.click(item);
    const dialog = await screen.findByRole('dialog');
    const actions = buttonsIn(dialog).filter((b) => /^(Schedule|Reschedule|Publish Now)/.test(b));
    if (draggable === 'true') expect(actions).toContain('Reschedule Blog');
    else expect(actions).toEqual([]);
    // Publishing stays an editor's.
    expect(actions.some((b) => b.startsWith('Publish Now'))).toBe(role === 'editor');
  });
});

describe('Create: a reviewer reads the article, creates and edits nothing', () => {
  const article: Article = makeArticle({ title: 'Spring launch' });
  const routes = (role: WorkspaceRole) =>
    workspaceRoutes(role, {
      'articles.get': { article },
      'images.status': { success: true, hasImage: false, pending: false, image: null, error: null },
    });

  it('a reviewer: the texts read-only, no Manual/GPT, Save, image generation or upload; no Create form', async () => {
    mockApi(routes('reviewer'));
    renderWithProviders(<CreatePage />, { route: '/create?articleId=a1' });
    const dialog = await screen.findByRole('dialog', { name: 'Generated Content' });
    const blog = await within(dialog).findByRole('textbox', { name: 'Blog content' });
    expect(blog).toHaveAttribute('readonly');
    expect(within(dialog).getByRole('textbox', { name: 'LinkedIn content' })).toHaveAttribute('readonly');
    for (const name of ['Manual', 'GPT', 'Save']) expect(within(dialog).queryByRole('button', { name })).toBeNull();
    expect(within(dialog).getByText(/Read only/)).toBeVisible();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    await within(dialog).findByText('No image yet.');
    expect(within(dialog).queryByRole('button', { name: /Generate Image/ })).toBeNull();
    expect(within(dialog).queryByLabelText(/Upload image/)).toBeNull();
    expect(within(dialog).queryByRole('textbox', { name: 'Image Description' })).toBeNull();
    // Behind the modal: no form to create, no Sheets import.
    expect(screen.queryByRole('button', { name: /Import Articles from Google Sheets/ })).toBeNull();
    expect(screen.getByText(/does not create them/)).toBeInTheDocument();
  });

  it('a writer edits: Manual/GPT and the image step as before', async () => {
    mockApi(routes('writer'));
    renderWithProviders(<CreatePage />, { route: '/create?articleId=a1' });
    const dialog = await screen.findByRole('dialog', { name: 'Generated Content' });
    await waitFor(() => expect(within(dialog).getAllByRole('button', { name: 'GPT' })).toHaveLength(2));
    expect(within(dialog).getByRole('textbox', { name: 'Blog content' })).not.toHaveAttribute('readonly');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(await within(dialog).findByRole('button', { name: 'Generate Image' })).toBeVisible();
    expect(within(dialog).getByLabelText('Upload image')).toBeInTheDocument();
  });
});

describe('Settings: only an owner sees the connection forms', () => {
  const statuses: MockRoutes = {
    'wordpress.status': {
      success: true,
      configured: true,
      siteUrl: 'https://blog.example.com',
      username: 'editor',
      hasAppPassword: true,
      updatedAt: null,
    },
    'linkedin.status': {
      success: true,
      clientId: 'li-client',
      hasClientSecret: true,
      connected: true,
      memberName: 'Ada Lovelace',
      expiresAt: null,
      expiringSoon: false,
      expired: false,
    },
    'email.status': {
      success: true,
      notificationEmail: 'team@example.com',
      gmailClientId: '',
      gmailClientSecret: '',
      gmailRefreshToken: '',
      authenticated: false,
    },
    'sheets.status': { success: true, authenticated: false, clientConfigured: false },
  };

  it.each(['editor', 'writer', 'reviewer'] as const)(
    'an %s sees each connection read-only and whom to ask',
    async (role) => {
      const { requests } = mockApi(workspaceRoutes(role, statuses));
      renderWithProviders(<SettingsPage />, { route: '/settings' });
      const section = await screen.findByRole('region', { name: 'Connections' });
      await within(section).findByText('Connected to https://blog.example.com as editor');
      expect(within(section).getByText('Connected as Ada Lovelace')).toBeVisible();
      expect(within(section).getAllByText('Not connected')).toHaveLength(2);
      expect(section).toHaveTextContent('Ask the workspace owner to connect or change them.');
      expect(screen.queryByRole('textbox')).toBeNull();
      expect(screen.queryByRole('button', { name: /Save|Connect|Test/ })).toBeNull();
      // Only the status routes every member may read; nothing an owner's panel loads (settings.list).
      expect(requests.some((r) => r.route === 'settings.list')).toBe(false);
    },
  );
});

describe('the shell: Create and + New Article', () => {
  it.each([
    ['writer', true],
    ['reviewer', false],
  ] as const)('the side navigation links Create only for a role that creates (%s)', async (role, shown) => {
    mockApi(workspaceRoutes(role, { 'dashboard.get': { status: 500, body: { error: 'x', message: 'x' } } }));
    renderWithProviders(<App />, { route: '/history' });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await within(nav).findByRole('link', { name: 'History' });
    await waitFor(() => expect(within(nav).queryByRole('link', { name: 'Create' }) !== null).toBe(shown));
    expect(screen.queryByRole('button', { name: '+ New Article' }) !== null).toBe(shown);
  });
});

describe('Sheets import: connecting is an owner’s, importing a writer’s', () => {
  it.each([
    ['owner', true],
    ['writer', false],
  ] as const)('Connect to Google Sheets is a button only for an owner (%s)', async (role, shown) => {
    mockApi(
      workspaceRoutes(role, { 'sheets.status': { success: true, authenticated: false, clientConfigured: true } }),
    );
    renderWithProviders(<SheetsImportPage />, { route: '/sheets-import' });
    await screen.findByRole('heading', { name: 'Connect to Google Sheets' });
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Connect to Google Sheets' }) !== null).toBe(shown),
    );
    expect(screen.queryByText('Ask the workspace owner to connect Google Sheets.') !== null).toBe(!shown);
  });
});
