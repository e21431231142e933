import type { Notice } from '../hooks/useInlineNotice';

/** Renders a notice of useInlineNotice: errors are alerts, the rest polite status messages. */
export function InlineNotice({ notice, className = '' }: { notice: Notice | null; className?: string }) {
  if (!notice) return null;
  return (
    <div
      key={notice.id}
      className={`inline-notice inline-notice--${notice.kind}${notice.leaving ? ' is-leaving' : ''} ${className}`.trim()}
      role={notice.kind === 'error' ? 'alert' : 'status'}
    >
      {notice.text}
    </div>
  );
}
