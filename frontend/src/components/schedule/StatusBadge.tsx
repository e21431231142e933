import { useId } from 'react';
import { QUOTA_BADGE, type PlatformStatus } from '@app/shared';

export type BadgeTone = 'neutral' | 'accent' | 'warning' | 'success' | 'danger';

export const STATUS_TONES: Record<PlatformStatus, BadgeTone> = {
  'not-scheduled': 'neutral',
  scheduled: 'accent',
  'content-created': 'warning',
  published: 'success',
};

interface StatusBadgeProps {
  label: string;
  tone: BadgeTone;
  /** Shown on hover and keyboard focus, and read as the badge's description. */
  tooltip?: string;
  /** Makes the badge a button (docs/product.md, Schedule: clicking the badge opens scheduling). */
  onClick?: () => void;
  /** Read before the label by screen readers, e.g. "Overall status:". */
  srPrefix?: string;
}

/** A status pill; "Not enough credit" badges carry the error as a tooltip (docs/product.md, Schedule). */
export function StatusBadge({ label, tone, tooltip, onClick, srPrefix }: StatusBadgeProps) {
  const tipId = useId();
  const className = `status-badge status-badge--${tone}${label === QUOTA_BADGE ? ' status-badge--quota' : ''}`;
  const content = (
    <>
      {srPrefix && <span className="sr-only">{srPrefix} </span>}
      {label}
    </>
  );
  return (
    <span className={`status-badge-wrap${tooltip ? ' has-tooltip' : ''}`}>
      {onClick ? (
        <button
          type="button"
          className={`${className} status-badge--button`}
          aria-describedby={tooltip ? tipId : undefined}
          aria-haspopup="dialog"
          onClick={onClick}
        >
          {content}
        </button>
      ) : (
        // Focusable only when there is a tooltip to reveal.
        <span className={className} tabIndex={tooltip ? 0 : undefined} aria-describedby={tooltip ? tipId : undefined}>
          {content}
        </span>
      )}
      {tooltip && (
        <span id={tipId} role="tooltip" className="tooltip">
          {tooltip}
        </span>
      )}
    </span>
  );
}
