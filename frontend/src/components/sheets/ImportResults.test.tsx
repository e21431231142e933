import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { ImportResults } from './ImportResults';
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
