import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { PostingModeChoice, NO_PAGE_ACCESS_NOTE } from './PostingModeChoice';
import { LINKEDIN_QUERY_KEY } from './status';
import { makeArticle } from '../../test/articles';
import { linkedinStatus } from '../../test/settings';
import { mockApi, renderWithProviders } from '../../test/utils';

const business = () => screen.getByRole('radio', { name: 'Business Page' });

describe('PostingModeChoice: page access note', () => {
  it('asks for the LinkedIn status once for all cards and notes missing page access on each', async () => {
    const { requests } = mockApi({ 'linkedin.status': linkedinStatus({ connected: true, canPostAsPage: false }) });
    renderWithProviders(
      <>
        {Array.from({ length: 5 }, (_, i) => (
          <PostingModeChoice key={i} article={makeArticle({ _id: `a${i}` })} />
        ))}
      </>,
    );
    await waitFor(() => expect(screen.getAllByText(NO_PAGE_ACCESS_NOTE)).toHaveLength(5));
    expect(requests.filter((r) => r.path === '/api/linkedin/status')).toHaveLength(1);
  });

  it('a status that cannot be read: no note, the choice works as before', async () => {
    const { requests } = mockApi({ 'linkedin.status': { status: 500, body: null } });
    renderWithProviders(<PostingModeChoice article={makeArticle()} />);
    await waitFor(() => expect(requests.filter((r) => r.path === '/api/linkedin/status')).toHaveLength(1));
    expect(business()).toBeEnabled();
    expect(screen.queryByText(NO_PAGE_ACCESS_NOTE)).not.toBeInTheDocument();
  });

  it('a cached status without page access: the choice stays, with a note on Business Page', async () => {
    mockApi({});
    const { queryClient } = renderWithProviders(
      <PostingModeChoice article={makeArticle({ linkedInMode: 'company' })} />,
    );
    act(() => {
      queryClient.setQueryData(LINKEDIN_QUERY_KEY, linkedinStatus({ connected: true, canPostAsPage: false }));
    });
    expect(await screen.findByText(NO_PAGE_ACCESS_NOTE)).toBeInTheDocument();
    expect(business()).toBeChecked();
    expect(business()).toBeEnabled();
    expect(business()).toHaveAccessibleDescription(NO_PAGE_ACCESS_NOTE);
    expect(screen.getByRole('radio', { name: 'Personal Profile' })).not.toHaveAccessibleDescription();
  });

  it('page access granted, not known (older connection) or not connected: no note', async () => {
    mockApi({});
    const { queryClient } = renderWithProviders(<PostingModeChoice article={makeArticle()} />);
    for (const status of [
      linkedinStatus({ connected: true, canPostAsPage: true }),
      linkedinStatus({ connected: true, canPostAsPage: null }),
      linkedinStatus({ connected: false, canPostAsPage: false }),
    ]) {
      act(() => {
        queryClient.setQueryData(LINKEDIN_QUERY_KEY, linkedinStatus({ connected: true, canPostAsPage: false }));
      });
      expect(await screen.findByText(NO_PAGE_ACCESS_NOTE)).toBeInTheDocument();
      act(() => {
        queryClient.setQueryData(LINKEDIN_QUERY_KEY, status);
      });
      await waitFor(() => expect(screen.queryByText(NO_PAGE_ACCESS_NOTE)).not.toBeInTheDocument());
    }
  });
});
