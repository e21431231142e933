interface LoadFailedProps {
  /** What could not be loaded ("Failed to load the calendar"). */
  text: string;
  /** The query to load again; Try again waits while it is loading. */
  query: { isFetching: boolean; refetch: () => unknown };
  /** The page's own spacing. */
  className?: string;
  /** The button's label (what it does again). */
  action?: string;
}

/** A page's data that could not be loaded: what failed, and Try again beside it (styles/base.css .load-failed). */
export function LoadFailed({ text, query, className = '', action = 'Try again' }: LoadFailedProps) {
  return (
    <div className={`alert alert--error load-failed ${className}`.trim()} role="alert">
      <span>{text}</span>
      <button
        type="button"
        className="btn btn--secondary btn--sm"
        disabled={query.isFetching}
        onClick={() => void query.refetch()}
      >
        {action}
      </button>
    </div>
  );
}
