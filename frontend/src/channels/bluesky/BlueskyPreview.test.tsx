import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { ChannelConnectionAnswer } from '@app/shared';
import { mockApi, renderWithProviders } from '../../test/utils';
import { AlsoPreviews } from '../also';
import BlueskyPreview from './BlueskyPreview';

const IMAGE = { generatedAt: '2025-03-01T10:00:00.000Z', description: 'a printing press' };
const T = encodeURIComponent(IMAGE.generatedAt);
const post = () => screen.getByRole('article', { name: 'Bluesky post' });
const connected: ChannelConnectionAnswer = {
  success: true,
  channel: 'bluesky',
  connected: true,
  fields: { handle: 'alice.test', appPassword: '••••mnop', serviceUrl: 'https://bsky.social' },
  updatedAt: null,
};

describe('Bluesky preview', () => {
  it("the connected account's handle, links and hashtags as links (facet rules), the image with its alt text", async () => {
    mockApi({ 'channels.status': connected });
    renderWithProviders(
      <BlueskyPreview
        articleId="a1"
        title="Print"
        content={'Presses 👨‍👩‍👧 are back. #printing #2024 #Ink!'}
        image={IMAGE}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Bluesky preview', level: 4 })).toBeInTheDocument();
    expect(await within(post()).findByText('@alice.test')).toBeInTheDocument();
    const links = within(post()).getAllByRole('link');
    // #2024 is only digits: no tag, as on Bluesky; the trailing "!" stays outside #Ink.
    expect(links.map((link) => link.textContent)).toEqual(['#printing', '#Ink']);
    expect(links[0]).toHaveAttribute('href', 'https://bsky.app/hashtag/printing');
    const image = within(post()).getByRole('img', { name: 'a printing press' });
    expect(image).toHaveAttribute('src', `/api/image/preview/a1?platform=blog&t=${T}`);
  });

  it('a link in the text: styled as a link, and a link card with the article title', () => {
    mockApi({});
    renderWithProviders(
      <BlueskyPreview
        articleId="a1"
        title="Print"
        content="Read it: https://blog.example.com/print-is-back. Done"
        image={IMAGE}
      />,
    );
    expect(within(post()).getByText('Your Bluesky account')).toBeInTheDocument();
    const inline = within(post()).getByRole('link', { name: 'blog.example.com/print-is-back' });
    expect(inline).toHaveAttribute('href', 'https://blog.example.com/print-is-back');
    const card = within(post()).getByRole('link', { name: 'Link card: Print' });
    expect(card).toHaveAttribute('href', 'https://blog.example.com/print-is-back');
    expect(within(card).getByText('blog.example.com')).toBeInTheDocument();
  });

  it('a link card given (a bundle’s blog post, its address not known yet): the card with the picture, the title and where it links, in place of the text’s link', () => {
    mockApi({});
    renderWithProviders(
      <BlueskyPreview
        imageUrl="/api/approvals/image?token=t"
        title="Print"
        content="New post: https://example.com/other #print"
        image={IMAGE}
        linkCard={{ title: 'Print', site: 'The blog post’s address, once it is live' }}
      />,
    );
    const card = within(post()).getByRole('group', { name: 'Link card: Print' });
    expect(within(card).getByText('The blog post’s address, once it is live')).toBeInTheDocument();
    expect(within(card).getByText('Print')).toBeInTheDocument();
    expect(within(card).getByRole('img', { name: 'a printing press' })).toHaveAttribute(
      'src',
      '/api/approvals/image?token=t',
    );
    expect(within(card).queryByRole('link')).not.toBeInTheDocument();
    // One picture: on the card, not above it too; the text's own link stays a link of the text.
    expect(within(post()).getAllByRole('img')).toHaveLength(1);
    expect(within(post()).queryByRole('link', { name: /^Link card/ })).not.toBeInTheDocument();
  });

  it('not among the blog version’s previews: its text is its own', async () => {
    mockApi({ 'channels.status': connected });
    renderWithProviders(<AlsoPreviews version="blog" articleId="a1" title="Print" content="# Blog" image={null} />);
    // Ghost shares the same status answer here, so its preview shows; Bluesky's does not.
    expect(await screen.findByRole('article', { name: 'Ghost post' })).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'Bluesky post' })).not.toBeInTheDocument();
  });
});
