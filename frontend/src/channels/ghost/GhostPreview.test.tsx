import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { renderMarkdown, wordpressPost, type ChannelConnectionAnswer } from '@app/shared';
import { mockApi, renderWithProviders } from '../../test/utils';
import { AlsoPreviews } from '../also';
import GhostPreview from './GhostPreview';
import { ghostStatusQuery } from './status';

const IMAGE = { generatedAt: '2025-03-01T10:00:00.000Z', description: 'a printing press' };
const T = encodeURIComponent(IMAGE.generatedAt);
const CONTENT = '# Hello\n\n<script>alert(1)</script>\n\n[bad](javascript:alert(2)) [ok](https://example.com) **bold**';
const ghost = () => screen.getByRole('article', { name: 'Ghost post' });
const status = (connected: boolean): ChannelConnectionAnswer => ({
  success: true,
  channel: 'ghost',
  connected,
  fields: {},
  updatedAt: null,
});

describe('Ghost preview', () => {
  it('shows the title, the feature image of the blog version and exactly the sanitized HTML the channel sends', () => {
    mockApi({});
    renderWithProviders(<GhostPreview articleId="a1" title="Tips & <tricks>" content={CONTENT} image={IMAGE} />);
    expect(screen.getByRole('heading', { name: 'Ghost preview', level: 4 })).toBeInTheDocument();
    expect(within(ghost()).getByRole('heading', { level: 1, name: 'Tips & <tricks>' })).toBeInTheDocument();
    const image = within(ghost()).getByRole('img', { name: 'Feature image: a printing press' });
    expect(image).toHaveAttribute('src', `/api/image/preview/a1?platform=blog&t=${T}`);

    const body = ghost().querySelector('.ghost-preview__body')!;
    const sent = document.createElement('div');
    // The channel's publish sends wordpressPost's HTML (functions/src/channels/post.ts, postBody).
    sent.innerHTML = wordpressPost({ title: 'Tips & <tricks>', blogContent: CONTENT }).html;
    expect(body.innerHTML).toBe(sent.innerHTML);
    expect(body.innerHTML).not.toMatch(/<script|javascript:/i);
    expect(body.innerHTML).toContain(renderMarkdown('**bold**').replace(/^<p>|<\/p>\n?$/g, ''));
  });

  it('without an image: the note to add one; an empty text: "Nothing to preview yet."', () => {
    mockApi({});
    renderWithProviders(<GhostPreview articleId="a1" title="Empty" content="" image={null} />);
    expect(within(ghost()).getByText('No feature image yet: add one in the Image step.')).toBeInTheDocument();
    expect(within(ghost()).getByText('Nothing to preview yet.')).toBeInTheDocument();
  });

  it('on Create it follows the blog version only while Ghost is connected', async () => {
    mockApi({ 'channels.status': status(true) });
    const { unmount } = renderWithProviders(
      <AlsoPreviews version="blog" articleId="a1" title="Hello" content="Some text" image={null} />,
    );
    expect(await screen.findByRole('article', { name: 'Ghost post' })).toHaveTextContent('Some text');
    unmount();

    mockApi({ 'channels.status': status(false) });
    const { queryClient } = renderWithProviders(
      <AlsoPreviews version="blog" articleId="a1" title="Hello" content="Some text" image={null} />,
    );
    // The status has arrived (and rendered): not connected, no preview.
    await waitFor(() => expect(queryClient.getQueryData(ghostStatusQuery.queryKey)).toEqual(status(false)));
    expect(screen.queryByRole('article', { name: 'Ghost post' })).not.toBeInTheDocument();
    // No second channel of the LinkedIn version.
    expect(screen.queryByRole('heading', { name: 'Ghost preview' })).not.toBeInTheDocument();
  });
});
