import type { ReactNode } from 'react';
import { Spinner } from './Spinner';

interface TableCardStateProps {
  query: { isPending: boolean; isError: boolean; refetch: () => unknown };
  /** "Loading users": the spinner's label, and with "..." the text beside it. */
  loadingLabel: string;
  failedText: string;
  /** The list is empty: `emptyText` instead of the table. */
  empty: boolean;
  emptyText: string;
  /** Shown beside `emptyText`: what to do next (a link to the page that fills the list). */
  emptyAction?: ReactNode;
  children: ReactNode;
}

/** The loading, failed ("Try again") and empty states of a table card (admin.css), then the table. */
export function TableCardState({
  query,
  loadingLabel,
  failedText,
  empty,
  emptyText,
  emptyAction,
  children,
}: TableCardStateProps) {
  if (query.isPending) {
    return (
      <div className="admin-card__state">
        <Spinner size="sm" label={loadingLabel} />
        <span>{`${loadingLabel}...`}</span>
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="admin-card__state">
        <div className="alert alert--error" role="alert">
          {failedText}
        </div>
        <button type="button" className="btn btn--secondary" onClick={() => void query.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  if (empty && emptyAction) {
    return (
      <div className="admin-card__state">
        <p>{emptyText}</p>
        {emptyAction}
      </div>
    );
  }
  if (empty) return <p className="admin-card__state muted">{emptyText}</p>;
  return <>{children}</>;
}
