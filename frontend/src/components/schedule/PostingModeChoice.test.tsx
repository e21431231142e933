import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import { PostingModeChoice, NO_PAGE_ACCESS_NOTE } from './PostingModeChoice';
import { LINKEDIN_QUERY_KEY } from '../settings/types';
import { makeArticle } from '../../test/articles';
import { linkedinStatus } from '../../test/settings';
import { mockApi, renderWithProviders } from '../../test/utils';

const business = () => screen.getByRole('radio', { name: 'Business Page' });

describe('PostingModeChoice: page access note', () => {
  it('no LinkedIn status cached: no note, and no request for it (one card or fifty)', () => {
    const { requests } = mockApi({});
    renderWithProviders(<PostingModeChoice article={makeArticle()} />);
    expect(business()).toBeEnabled();
    expect(screen.queryByText(NO_PAGE_ACCESS_NOTE)).not.toBeInTheDocument();
    expect(requests).toEqual([]);
  });

  it('a cached status without page access: the choice stays, with a note on Business Page', async () => {
    const { requests } = mockApi({});
    const { queryClient } = renderWithProviders(<PostingModeChoice article={makeArticle({ linkedInMode: 'company' })} />);
    act(() => {
      queryClient.setQueryData(LINKEDIN_QUERY_KEY, linkedinStatus({ connected: true, canPostAsPage: false }));
    });
    expect(await screen.findByText(NO_PAGE_ACCESS_NOTE)).toBeInTheDocument();
    expect(business()).toBeChecked();
    expect(business()).toBeEnabled();
    expect(business()).toHaveAccessibleDescription(NO_PAGE_ACCESS_NOTE);
    expect(screen.getByRole('radio', { name: 'Personal Profile' })).not.toHaveAccessibleDescription();
    expect(requests).toEqual([]);
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
