import { useId, type ReactNode } from 'react';
import { Spinner } from '../Spinner';

interface SettingsCardProps {
  title: string;
  description: ReactNode;
  /** Shown at the right of the title: a badge or a button. */
  aside?: ReactNode;
  /** The panel's data is being (re)loaded. */
  busy: boolean;
  children: ReactNode;
}

/** One panel of /settings: a card with its title, description and content. */
export function SettingsCard({ title, description, aside, busy, children }: SettingsCardProps) {
  const titleId = useId();
  return (
    <section className="card settings-card" aria-labelledby={titleId} aria-busy={busy || undefined}>
      <div className="settings-card__header settings-card__header--row">
        <div>
          <h2 id={titleId} className="card-title">
            {title}
          </h2>
          <p className="card-description">{description}</p>
        </div>
        {aside}
      </div>
      {children}
    </section>
  );
}

interface PanelQueryStateProps {
  query: { isPending: boolean; isError: boolean; refetch: () => Promise<unknown> };
  loadingLabel: string;
  failedText: string;
  /** What to show once the data has loaded. */
  children?: ReactNode;
}

/** A panel's spinner while its data loads, the failure with "Try again" (its one message, no toast), then `children`. */
export function PanelQueryState({ query, loadingLabel, failedText, children }: PanelQueryStateProps) {
  if (query.isPending) {
    return (
      <div className="settings-card__state">
        <Spinner label={loadingLabel} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="settings-card__state">
        <div className="alert alert--error" role="alert">
          {failedText}
        </div>
        <button type="button" className="btn btn--secondary btn--sm" onClick={() => void query.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  return <>{children}</>;
}
