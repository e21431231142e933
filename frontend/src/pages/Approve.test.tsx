import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Approve from './Approve';
import type { ApprovalPreview } from '@app/shared/api';
import { mockApi, renderWithProviders } from '../test/utils';

const preview: ApprovalPreview = {
  success: true,
  title: 'Serverless cost control',
  platform: 'blog',
  scheduledFor: '2026-12-01T08:30:00.000Z',
  current: true,
  published: false,
  content: '# Serverless cost control\n\nRight-size memory.',
  timeZone: 'Asia/Tokyo',
  image: null,
  linkedIn: null,
  postUrl: null,
  channels: [{ channel: 'wordpress', label: 'WordPress', published: false, postUrl: null, content: '' }],
};

describe('Approve page', () => {
  it('shows what would be published and publishes only after the explicit confirmation', async () => {
    const { requests } = mockApi({
      'approvals.preview': preview,
      'approvals.confirm': {
        success: true,
        message: 'Published',
        platform: 'blog',
        postUrl: 'https://blog.example.com/p/1',
        channels: [{ channel: 'wordpress', label: 'WordPress', postUrl: 'https://blog.example.com/p/1' }],
      },
    });
    renderWithProviders(<Approve />, { route: '/approve?token=signed-token-value' });
    expect(
      await screen.findByRole('heading', { name: 'Publish “Serverless cost control” to WordPress?' }),
    ).toBeInTheDocument();
    expect(await screen.findByText(/Right-size memory/)).toBeInTheDocument();
    expect(requests.map((r) => r.path)).toEqual(['/api/approvals/preview']);
    expect(requests[0]!.body).toEqual({ token: 'signed-token-value' });

    await userEvent.click(screen.getByRole('button', { name: 'Approve and publish to WordPress' }));
    expect(await screen.findByText(/Published to WordPress\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View the post' })).toHaveAttribute('href', 'https://blog.example.com/p/1');
    expect(requests.filter((r) => r.path === '/api/approvals/confirm')).toHaveLength(1);
  });

  it('names every channel of the version it publishes to, and links each post once published', async () => {
    const { requests } = mockApi({
      'approvals.preview': {
        ...preview,
        channels: [
          { channel: 'wordpress', label: 'WordPress', published: false, postUrl: null, content: '' },
          { channel: 'second', label: 'Second Blog', published: false, postUrl: null, content: '' },
        ],
      },
      'approvals.confirm': {
        success: true,
        message: 'Approved and published to WordPress and Second Blog.',
        platform: 'blog',
        postUrl: 'https://blog.example.com/p/1',
        channels: [
          { channel: 'wordpress', label: 'WordPress', postUrl: 'https://blog.example.com/p/1' },
          { channel: 'second', label: 'Second Blog', postUrl: 'https://second.example.com/p/' },
        ],
      },
    });
    renderWithProviders(<Approve />, { route: '/approve?token=signed-token-value' });
    expect(
      await screen.findByRole('heading', { name: 'Publish “Serverless cost control” to WordPress and Second Blog?' }),
    ).toBeInTheDocument();
    // The same blog post goes to both: shown once, saying where it goes.
    expect(await screen.findByText('Goes to WordPress and Second Blog.')).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Approve and publish to WordPress and Second Blog' }));
    expect(await screen.findByText(/Published to WordPress and Second Blog\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View on WordPress' })).toHaveAttribute(
      'href',
      'https://blog.example.com/p/1',
    );
    expect(screen.getByRole('link', { name: 'View on Second Blog' })).toHaveAttribute(
      'href',
      'https://second.example.com/p/',
    );
    expect(requests.filter((r) => r.path === '/api/approvals/confirm')).toHaveLength(1);
  });

  it('explains an invalid or expired link and offers no approval', async () => {
    mockApi({
      'approvals.preview': {
        status: 400,
        body: { error: 'x', message: 'This approval link is not valid or has expired.' },
      },
    });
    renderWithProviders(<Approve />, { route: '/approve?token=bad-token-value-000000' });
    expect(await screen.findByRole('alert')).toHaveTextContent('This approval link is not valid or has expired.');
    expect(screen.queryByRole('button', { name: /Approve and publish/ })).not.toBeInTheDocument();
  });

  it('cannot approve a link for an earlier schedule', async () => {
    mockApi({ 'approvals.preview': { ...preview, current: false } });
    renderWithProviders(<Approve />, { route: '/approve?token=old-token-value-000000' });
    expect(await screen.findByText(/earlier schedule/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Approve and publish to WordPress' })).toBeDisabled();
  });

  it('shows the blog as WordPress will: the sanitized HTML under the featured image and title, at the owner’s time', async () => {
    const image = { generatedAt: '2026-11-30T10:00:00.000Z', description: 'a server rack' };
    const { requests } = mockApi({
      'approvals.preview': {
        ...preview,
        content:
          'Cut the bill.\n\n## Right-size memory\n\n> Measure first.\n\n- one\n- two\n\n<script>alert(1)</script>[x](javascript:alert(2))',
        image,
      },
    });
    renderWithProviders(<Approve />, { route: '/approve?token=signed-token-value' });
    const post = await screen.findByRole('article', { name: 'WordPress post' });
    expect(within(post).getByRole('heading', { level: 1, name: 'Serverless cost control' })).toBeInTheDocument();
    expect(within(post).getByText('Cut the bill.').tagName).toBe('P');
    expect(within(post).getByRole('heading', { level: 2, name: 'Right-size memory' })).toBeInTheDocument();
    expect(post.querySelector('blockquote')).toHaveTextContent('Measure first.');
    expect(
      within(post)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['one', 'two']);
    expect(post.textContent).not.toMatch(/##|^>|<script/m);
    expect(post.querySelector('script, [href^="javascript"]')).toBeNull();
    // The image by the link's token: the page may be open without a session.
    expect(within(post).getByRole('img', { name: 'Featured image: a server rack' })).toHaveAttribute(
      'src',
      `/api/approvals/image?token=signed-token-value&t=${encodeURIComponent(image.generatedAt)}`,
    );
    // 08:30 UTC is 17:30 in Tokyo, the owner's zone, named — whatever the browser's zone.
    expect(screen.getByText('Tuesday, 1 December 2026 at 17:30 GMT+9 (Asia/Tokyo)')).toBeInTheDocument();
    expect(requests.map((r) => r.route)).toEqual(['approvals.preview']);
  });

  it('shows the LinkedIn post as the editor’s card, its author from the answer (no session needed)', async () => {
    const { requests } = mockApi({
      'approvals.preview': {
        ...preview,
        platform: 'linkedin',
        content: 'Ship it (today) #Launch',
        image: { generatedAt: '2026-11-30T10:00:00.000Z', description: 'a rocket' },
        linkedIn: { mode: 'company', connected: true, memberName: 'Ada Lovelace', pageName: 'Example GmbH' },
        channels: [{ channel: 'linkedin', label: 'LinkedIn', published: false, postUrl: null, content: '' }],
      },
    });
    renderWithProviders(<Approve />, { route: '/approve?token=signed-token-value' });
    const card = await screen.findByRole('article', { name: 'LinkedIn post' });
    expect(within(card).getByText('Example GmbH')).toBeInTheDocument();
    expect(card.querySelector('.li-card__text')).toHaveTextContent('Ship it (today) #Launch');
    expect(card.querySelector('.li-card__hashtag')).toHaveTextContent('#Launch');
    expect(within(card).getByRole('img', { name: 'Post image: a rocket' }).getAttribute('src')).toMatch(
      /^\/api\/approvals\/image\?token=signed-token-value&t=/,
    );
    expect(screen.getByRole('button', { name: 'Approve and publish to LinkedIn' })).toBeEnabled();
    expect(requests.map((r) => r.route)).toEqual(['approvals.preview']);
  });

  it('shows a title that looks like HTML as text', async () => {
    const title = '<img src=x onerror=alert(1)>';
    mockApi({ 'approvals.preview': { ...preview, title } });
    renderWithProviders(<Approve />, { route: '/approve?token=signed-token-value' });
    expect(
      await screen.findByRole('heading', { level: 1, name: `Publish “${title}” to WordPress?` }),
    ).toBeInTheDocument();
    const post = await screen.findByRole('article', { name: 'WordPress post' });
    expect(within(post).getByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(document.querySelector('img[src="x"], [onerror]')).toBeNull();
  });

  it('tells a failed publish by the button, after the post, where the person clicked', async () => {
    mockApi({
      'approvals.preview': preview,
      'approvals.confirm': {
        status: 400,
        body: { error: 'x', message: 'Connect WordPress in Settings first (WordPress Integration).' },
      },
    });
    renderWithProviders(<Approve />, { route: '/approve?token=signed-token-value' });
    const post = await screen.findByRole('article', { name: 'WordPress post' });
    const approve = screen.getByRole('button', { name: 'Approve and publish to WordPress' });
    await userEvent.click(approve);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Connect WordPress in Settings first (WordPress Integration).');
    expect(post.compareDocumentPosition(alert) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(alert.compareDocumentPosition(approve) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('a blog-first bundle: the LinkedIn card beside the blog post, with the blog post’s link; after a partial failure the button retries LinkedIn only', async () => {
    const image = { generatedAt: '2026-11-30T10:00:00.000Z', description: 'a server rack' };
    const bundle = (linkedinPublished: boolean, blogPublished: boolean): ApprovalPreview => ({
      ...preview,
      image,
      linkedIn: { mode: 'personal', connected: true, memberName: 'Ada Lovelace', pageName: null },
      channels: [
        {
          channel: 'wordpress',
          label: 'WordPress',
          published: blogPublished,
          postUrl: blogPublished ? 'https://blog.example.com/p/1' : null,
          content: preview.content,
        },
        {
          channel: 'linkedin',
          label: 'LinkedIn',
          published: linkedinPublished,
          postUrl: null,
          content: 'Read the whole story #serverless',
          social: true,
        },
      ],
    });
    mockApi({ 'approvals.preview': bundle(false, false) });
    const { unmount } = renderWithProviders(<Approve />, { route: '/approve?token=signed-token-value' });
    const blog = await screen.findByRole('article', { name: 'WordPress post' });
    const card = await screen.findByRole('article', { name: 'LinkedIn post' });
    expect(blog.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(card).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(card.querySelector('.li-card__text')).toHaveTextContent('Read the whole story #serverless');
    // The social post carries the blog post as LinkedIn's article card: the picture on it, the title, and where it
    // links (not known until the blog post is live), said in the card.
    const link = within(card).getByRole('group', { name: 'Link card: Serverless cost control' });
    expect(within(link).getByRole('img', { name: 'Post image: a server rack' }).getAttribute('src')).toMatch(
      /^\/api\/approvals\/image\?token=signed-token-value&t=/,
    );
    expect(within(link).getByText('Serverless cost control')).toBeInTheDocument();
    expect(within(link).getByText('The blog post’s address, once it is live')).toBeInTheDocument();
    expect(within(card).getAllByRole('img')).toHaveLength(1);
    expect(screen.queryByText(/Goes out after the blog post/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Approve and publish to WordPress and LinkedIn' })).toBeEnabled();
    unmount();

    mockApi({ 'approvals.preview': bundle(false, true) });
    renderWithProviders(<Approve />, { route: '/approve?token=signed-token-value' });
    expect(await screen.findByRole('button', { name: 'Retry LinkedIn' })).toBeEnabled();
    // The blog post is live: the card says where it leads, as the retried post will carry it.
    const live = within(await screen.findByRole('article', { name: 'LinkedIn post' })).getByRole('link', {
      name: 'Link card: Serverless cost control',
    });
    expect(live).toHaveAttribute('href', 'https://blog.example.com/p/1');
    expect(within(live).getByText('blog.example.com')).toBeInTheDocument();
    expect(within(live).queryByText('The blog post’s address, once it is live')).not.toBeInTheDocument();
  });

  it('a post address that is not http(s) never becomes a link, on the card or beside the channel', async () => {
    const answer = {
      ...preview,
      channels: [
        {
          channel: 'wordpress',
          label: 'WordPress',
          published: true,
          postUrl: 'javascript:alert(1)',
          content: preview.content,
        },
        {
          channel: 'linkedin',
          label: 'LinkedIn',
          published: false,
          postUrl: null,
          content: 'Read it',
          social: true as const,
        },
      ],
    };
    mockApi({ 'approvals.preview': answer });
    renderWithProviders(<Approve />, { route: '/approve?token=signed-token-value' });
    const card = await screen.findByRole('article', { name: 'LinkedIn post' });
    expect(within(card).getByRole('group', { name: 'Link card: Serverless cost control' })).toHaveTextContent(
      'The blog post’s address, once it is live',
    );
    expect(document.querySelector('a[href^="javascript"]')).toBeNull();
  });
});
