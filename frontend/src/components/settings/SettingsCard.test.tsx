import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BusyButton } from '../Spinner';
import { SavedSecretField } from './fields';
import { PanelQueryState, SettingsCard } from './SettingsCard';

const query = (state: Partial<{ isPending: boolean; isError: boolean }>, refetch = vi.fn(() => Promise.resolve())) => ({
  isPending: false,
  isError: false,
  refetch,
  ...state,
});

describe('settings panel parts', () => {
  it('SettingsCard: a region named by its title, busy while loading, with the aside next to the title', () => {
    render(
      <SettingsCard title="Some Integration" description="What it does." aside={<span>Badge</span>} busy>
        <p>Body</p>
      </SettingsCard>,
    );
    const card = screen.getByRole('region', { name: 'Some Integration' });
    expect(card).toHaveAttribute('aria-busy', 'true');
    expect(card).toHaveTextContent('What it does.');
    expect(card).toHaveTextContent('Badge');
    expect(card).toHaveTextContent('Body');
  });

  it('PanelQueryState: spinner, then the failure with Try again, then the content', async () => {
    const { rerender } = render(
      <PanelQueryState
        query={query({ isPending: true })}
        loadingLabel="Loading things"
        failedText="Failed to load things"
      >
        <p>Loaded</p>
      </PanelQueryState>,
    );
    expect(screen.getByRole('status', { name: 'Loading things' })).toBeInTheDocument();
    expect(screen.queryByText('Loaded')).not.toBeInTheDocument();

    const refetch = vi.fn(() => Promise.resolve());
    rerender(
      <PanelQueryState
        query={query({ isError: true }, refetch)}
        loadingLabel="Loading things"
        failedText="Failed to load things"
      >
        <p>Loaded</p>
      </PanelQueryState>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to load things');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(refetch).toHaveBeenCalledTimes(1);

    rerender(
      <PanelQueryState query={query({})} loadingLabel="Loading things" failedText="Failed to load things">
        <p>Loaded</p>
      </PanelQueryState>,
    );
    expect(screen.getByText('Loaded')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('BusyButton: its label, or a spinner and the busy label with aria-busy', () => {
    const { rerender } = render(<BusyButton type="button" busy={false} label="Save" busyLabel="Saving..." />);
    expect(screen.getByRole('button', { name: 'Save' })).not.toHaveAttribute('aria-busy');
    rerender(<BusyButton type="button" busy label="Save" busyLabel="Saving..." />);
    expect(screen.getByRole('button', { name: 'Saving...' })).toHaveAttribute('aria-busy', 'true');
  });

  it('SavedSecretField: required until a value is saved, then blank keeps it', () => {
    const field = {
      id: 'secret',
      label: 'Secret',
      what: 'secret',
      placeholder: 'Your secret',
      value: '',
      onChange: () => {},
    };
    const { rerender } = render(<SavedSecretField {...field} saved={false} />);
    const input = screen.getByLabelText('Secret');
    expect(input).toHaveAttribute('type', 'password');
    expect(input).toHaveAttribute('aria-required', 'true');
    expect(input).toHaveAttribute('placeholder', 'Your secret');

    rerender(<SavedSecretField {...field} saved />);
    expect(input).not.toHaveAttribute('aria-required');
    expect(input).toHaveAttribute('placeholder', 'Leave blank to keep the saved secret');
    expect(input).toHaveAccessibleDescription('A secret is saved. Type a new one only to replace it.');
  });
});
