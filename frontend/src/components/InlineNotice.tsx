import type { Notice } from '../hooks/useInlineNotice';

interface InlineNoticeProps {
  notice: Notice | null;
  className?: string;
  /** Pointer or focus entered the notice: keep it up (useInlineNotice's `hold`). */
  onHold?: () => void;
  /** Pointer and focus left it: start the clock again (useInlineNotice's `release`). */
  onRelease?: () => void;
}

/** Renders a notice of useInlineNotice: errors are alerts, the rest polite status messages. */
export function InlineNotice({ notice, className = '', onHold, onRelease }: InlineNoticeProps) {
  if (!notice) return null;
  return (
    <div
      key={notice.id}
      className={`inline-notice inline-notice--${notice.kind}${notice.leaving ? ' is-leaving' : ''} ${className}`.trim()}
      role={notice.kind === 'error' ? 'alert' : 'status'}
      onMouseEnter={onHold}
      onMouseLeave={onRelease}
      onFocus={onHold}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onRelease?.();
      }}
    >
      {notice.text}
      {notice.link && (
        <>
          {' '}
          <a className="inline-notice__link" href={notice.link.href} target="_blank" rel="noopener noreferrer">
            {notice.link.label}
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </>
      )}
    </div>
  );
}
