import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { unknownChannelsMessage } from '@app/shared';
import { ExpectedFormat } from './ExpectedFormat';
import { ImportResults } from './ImportResults';
import { CHANNEL_REGISTRY } from '../../channels/registry';
import { authErrorReason } from './messages';
import { renderWithProviders } from '../../test/utils';

describe('ImportResults', () => {
  it('shows only the count and Go to Schedule when every row was imported', () => {
    renderWithProviders(<ImportResults result={{ success: true, importedCount: 1, errors: [], alreadyImported: 0 }} />);
    expect(screen.getByText('Successfully imported 1 article.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Import errors' })).not.toBeInTheDocument();
    expect(screen.queryByText(/imported before/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to Schedule' })).toBeInTheDocument();
  });

  it('counts the problems', () => {
    renderWithProviders(
      <ImportResults
        result={{ success: true, importedCount: 0, errors: ['Row 2: Title is required'], alreadyImported: 1 }}
      />,
    );
    expect(screen.getByText('Successfully imported 0 articles.')).toBeInTheDocument();
    expect(screen.getByText('1 problem')).toBeInTheDocument();
    expect(screen.getByText('1 row was imported before and skipped.')).toBeInTheDocument();
  });
});

describe('ImportResults: a Channels column', () => {
  it('says how many articles go only to the channels their rows name, and lists a row refused for an unknown name', () => {
    const refused = `Row 4: ${unknownChannelsMessage(
      ['Medium'],
      CHANNEL_REGISTRY.map((channel) => channel.label),
    )}`;
    renderWithProviders(
      <ImportResults
        result={{ success: true, importedCount: 2, errors: [refused], alreadyImported: 0, channelsNamed: 1 }}
      />,
    );
    expect(screen.getByText('Successfully imported 2 articles.')).toBeInTheDocument();
    expect(
      screen.getByText('1 article goes only to the channels its row names in the Channels column.'),
    ).toBeInTheDocument();
    expect(screen.getByText('1 problem')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Import errors' })).toHaveTextContent(refused);
  });

  it('says nothing of channels without the column, or when no row named any', () => {
    const { unmount } = renderWithProviders(
      <ImportResults result={{ success: true, importedCount: 2, errors: [], alreadyImported: 0 }} />,
    );
    expect(screen.queryByText(/Channels column/)).not.toBeInTheDocument();
    unmount();
    renderWithProviders(
      <ImportResults result={{ success: true, importedCount: 2, errors: [], alreadyImported: 0, channelsNamed: 0 }} />,
    );
    expect(screen.queryByText(/Channels column/)).not.toBeInTheDocument();
  });
});

describe('ExpectedFormat', () => {
  it('lists the optional Channels column after Tags, with every channel name of the registry', () => {
    renderWithProviders(<ExpectedFormat />);
    const items = within(screen.getByRole('complementary', { name: 'Expected format' })).getAllByRole('listitem');
    const channels = items.find((item) => item.textContent?.startsWith('GChannels'));
    expect(channels).toBeDefined();
    for (const channel of CHANNEL_REGISTRY) expect(channels).toHaveTextContent(channel.label);
    expect(channels).toHaveTextContent(/optional/);
    // The default range (Sheet1!A1:F50) stops before it: the box says how far to read.
    expect(channels).toHaveTextContent('a range reaching column G, e.g. Sheet1!A1:G50');
  });
});

describe('authErrorReason', () => {
  it('turns callback codes into sentences, naming the redirect URI to register', () => {
    expect(authErrorReason('google_redirect_uri_mismatch', 'https://app.example')).toContain(
      'https://app.example/api/sheets/callback',
    );
    expect(authErrorReason('missing_scope')).toMatch(/allow both permissions/);
    // The code comes from the address: an unknown one is never repeated.
    expect(authErrorReason('weird')).toBe('the Google sign-in did not complete. Try again.');
    expect(authErrorReason('Your account is suspended, call now')).not.toMatch(/suspended/);
  });
});
