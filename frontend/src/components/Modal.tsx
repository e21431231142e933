import { useId, useRef, type ReactNode } from 'react';
import { useDialog } from './useDialog';
import '../styles/modal.css';

interface ModalProps {
  title: ReactNode;
  subtitle?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  size?: 'sm' | 'md' | 'xl';
  className?: string;
  /** While true the close button, Escape and backdrop clicks do nothing (a save is running). */
  closeDisabled?: boolean;
  /** The element to focus on open; the first control otherwise (see useDialog). */
  initialFocus?: () => HTMLElement | null | undefined;
}

/** A modal dialog: labelled by its title, focus kept inside, Escape and the backdrop close it. */
export function Modal({
  title,
  subtitle,
  onClose,
  children,
  size = 'md',
  className = '',
  closeDisabled,
  initialFocus,
}: ModalProps) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const subtitleId = useId();
  const close = () => {
    if (!closeDisabled) onClose();
  };
  useDialog(ref, { onClose: close, initialFocus });
  return (
    <div
      className="modal-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) close();
      }}
    >
      <div
        ref={ref}
        className={`modal modal--${size} ${className}`.trim()}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={subtitle ? subtitleId : undefined}
      >
        <button type="button" className="modal__close" aria-label="Close" onClick={close} disabled={closeDisabled}>
          <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
            <path d="M5 5l10 10M15 5L5 15" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
          </svg>
        </button>
        <div className="modal__header">
          <h2 id={titleId} className="modal__title">
            {title}
          </h2>
          {subtitle && (
            <p id={subtitleId} className="modal__subtitle">
              {subtitle}
            </p>
          )}
        </div>
        {children}
      </div>
    </div>
  );
}
