import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { linkedInCommentary, renderMarkdown, type LinkedInStatus } from '@app/shared';
import { mockApi, renderWithProviders, type MockRoutes } from '../test/utils';
import { LinkedInPreview } from './linkedin/LinkedInPreview';
import { WordPressPreview } from './wordpress/WordPressPreview';

const IMAGE = { generatedAt: '2025-03-01T10:00:00.000Z', description: 'a printing press' };
const T = encodeURIComponent(IMAGE.generatedAt);

const status = (overrides: Partial<LinkedInStatus> = {}): LinkedInStatus => ({
  success: true,
  clientId: 'client',
  hasClientSecret: true,
  connected: true,
  memberName: 'Ada Lovelace',
  expiresAt: '2099-01-01T00:00:00.000Z',
  expiringSoon: false,
  expired: false,
  canPostAsPage: true,
  ...overrides,
});

const wordpress = () => screen.getByRole('article', { name: 'WordPress post' });
const card = () => screen.getByRole('article', { name: 'LinkedIn post' });

describe('WordPress preview', () => {
  it('shows the title, the featured blog image and exactly the sanitized HTML publishing sends', () => {
    const content = '# Hello\n\n<script>alert(1)</script>\n\n[bad](javascript:alert(2)) [ok](https://example.com) #tag';
    mockApi({});
    renderWithProviders(
      <WordPressPreview articleId="a1" title="Tips & <tricks>" blogContent={content} image={IMAGE} />,
    );
    expect(screen.getByRole('heading', { name: 'WordPress preview', level: 4 })).toBeInTheDocument();
    expect(within(wordpress()).getByRole('heading', { level: 1, name: 'Tips & <tricks>' })).toBeInTheDocument();
    const image = within(wordpress()).getByRole('img', { name: 'Featured image: a printing press' });
    expect(image).toHaveAttribute('src', `/api/image/preview/a1?platform=blog&t=${T}`);
    expect(image).toHaveAttribute('width', '1200');
    expect(image).toHaveAttribute('height', '800');

    const body = wordpress().querySelector('.wp-preview__body')!;
    const published = document.createElement('div');
    published.innerHTML = renderMarkdown(content); // as the browser reads what WordPress gets
    expect(body.innerHTML).toBe(published.innerHTML);
    expect(body.innerHTML).not.toMatch(/<script|javascript:/i);
    expect(within(body as HTMLElement).getByRole('link', { name: 'ok' })).toHaveAttribute(
      'href',
      'https://example.com',
    );
  });

  it('shows the title once: a first heading of the text that repeats it is not shown again', () => {
    mockApi({});
    renderWithProviders(
      <WordPressPreview
        articleId="a1"
        title="Ten habits of calm teams"
        blogContent={'# Ten Habits of Calm Teams!\n\nCalm teams ship more.\n\n## Habit one'}
        image={null}
      />,
    );
    expect(within(wordpress()).getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(within(wordpress()).getAllByRole('heading', { name: /ten habits of calm teams/i })).toHaveLength(1);
    expect(within(wordpress()).getByText('Calm teams ship more.')).toBeInTheDocument();
    expect(within(wordpress()).getByRole('heading', { level: 2, name: 'Habit one' })).toBeInTheDocument();
  });

  it('without an image says where to add one; without text says there is nothing yet', () => {
    mockApi({});
    renderWithProviders(<WordPressPreview articleId="a1" title="Draft" blogContent={'  \n'} image={null} />);
    expect(within(wordpress()).queryByRole('img')).not.toBeInTheDocument();
    expect(within(wordpress()).getByText(/No featured image yet/)).toBeInTheDocument();
    expect(within(wordpress()).getByText('Nothing to preview yet.')).toBeInTheDocument();
    expect(within(wordpress()).getByRole('heading', { level: 1, name: 'Draft' })).toBeInTheDocument();
  });
});

function renderCard(
  text: string,
  {
    routes = {},
    image = IMAGE,
    mode = 'personal' as const,
  }: { routes?: MockRoutes; image?: typeof IMAGE | null; mode?: 'personal' | 'company' } = {},
) {
  mockApi({ 'linkedin.status': status(), ...routes });
  renderWithProviders(<LinkedInPreview articleId="a1" text={text} image={image} mode={mode} />);
  return userEvent.setup();
}

describe('LinkedIn preview', () => {
  it('shows the connected member, the text with its hashtags as LinkedIn links them, and the 1200×627 image', async () => {
    renderCard('Ship it (today) with @team! #Launch C# #1');
    expect(await within(card()).findByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(card()).getByText('AL')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'LinkedIn preview', level: 4 })).toBeInTheDocument();
    const text = card().querySelector('.li-card__text')!;
    expect(text).toHaveTextContent('Ship it (today) with @team! #Launch C# #1');
    expect([...text.querySelectorAll('.li-card__hashtag')].map((h) => h.textContent)).toEqual(['#Launch']);
    expect(within(card()).queryByRole('button', { name: /see more/ })).not.toBeInTheDocument();
    const image = within(card()).getByRole('img', { name: 'Post image: a printing press' });
    expect(image).toHaveAttribute('src', `/api/image/preview/a1?platform=linkedin&t=${T}`);
    expect(image).toHaveAttribute('width', '1200');
    expect(image).toHaveAttribute('height', '627');
  });

  it('folds a long post behind "…see more", a button that expands it (and "see less" folds it again)', async () => {
    const first = 'First line of the post\nSecond line\nThird line';
    const rest = '\nFourth line #Hidden';
    const user = renderCard(`${first}${rest}`);
    const more = within(card()).getByRole('button', { name: '…see more' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    const text = card().querySelector('.li-card__text')!;
    expect(text.textContent).toBe(`${first}…see more`);
    expect(text.querySelector('.li-card__hashtag')).toBeNull();

    await user.click(more);
    expect(text.textContent).toBe(`${first}${rest} see less`);
    expect(text.querySelector('.li-card__hashtag')).toHaveTextContent('#Hidden');
    const less = within(card()).getByRole('button', { name: 'see less' });
    expect(less).toHaveAttribute('aria-expanded', 'true');
    await user.click(less);
    expect(text.textContent).toBe(`${first}…see more`);
  });

  it('a long paragraph folds near 210 characters', () => {
    renderCard('word '.repeat(80));
    const text = card().querySelector('.li-card__text')!.textContent!;
    const shown = text.replace('…see more', '');
    expect(shown.length).toBeLessThanOrEqual(210);
    expect(shown.length).toBeGreaterThan(160);
  });

  it('posting as a page whose name is not known shows a placeholder page as the author', async () => {
    renderCard('Hello', { mode: 'company' });
    expect(await within(card()).findByText('Your LinkedIn Page')).toBeInTheDocument();
    expect(card().querySelector('.li-card__avatar.is-placeholder svg')).not.toBeNull();
  });

  it("posting as a page shows the page's name and initials as the author, not the member", async () => {
    renderCard('Hello', { mode: 'company', routes: { 'linkedin.status': status({ pageName: 'Example GmbH' }) } });
    expect(await within(card()).findByText('Example GmbH')).toBeInTheDocument();
    expect(within(card()).getByText(/A page you administer/)).toBeInTheDocument();
    expect(within(card()).queryByText('Ada Lovelace')).not.toBeInTheDocument();
    expect(within(card()).queryByText('Your LinkedIn Page')).not.toBeInTheDocument();
    expect(card().querySelector('.li-card__avatar')).not.toHaveClass('is-placeholder');
    expect(card().querySelector('.li-card__avatar')).toHaveTextContent('EG');
  });

  it('not connected: a neutral author, no image, and "Nothing to preview yet." for an empty text', async () => {
    const { requests } = mockApi({ 'linkedin.status': status({ connected: false, memberName: null }) });
    renderWithProviders(<LinkedInPreview articleId="a1" text="   " image={null} mode="personal" />);
    await waitFor(() => expect(requests.some((r) => r.route === 'linkedin.status')).toBe(true));
    expect(await within(card()).findByText(/Connect LinkedIn in Settings/)).toBeInTheDocument();
    expect(within(card()).getByText('LinkedIn member')).toBeInTheDocument();
    expect(card().querySelector('.li-card__avatar')).toHaveClass('is-placeholder');
    expect(card().querySelector('.li-card__avatar')).toHaveTextContent('');
    expect(within(card()).getByText('Nothing to preview yet.')).toBeInTheDocument();
    expect(within(card()).queryByRole('img')).not.toBeInTheDocument();
  });

  it('says when the escapes make the text longer than LinkedIn takes, and shows it as cut', () => {
    const typed = '(x) '.repeat(740); // 2960 characters typed, over 3000 escaped
    renderCard(typed);
    expect(screen.getByRole('note')).toHaveTextContent(/over 3000 characters/);
    const sent = linkedInCommentary(typed);
    expect(sent.endsWith('…')).toBe(true);
    // expanded, the card shows the commentary as sent, read back: the cut text
    const text = card().querySelector('.li-card__text')!;
    expect(text.textContent).toContain('(x)');
  });
});
