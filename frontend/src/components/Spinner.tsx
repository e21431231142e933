import type { ComponentPropsWithRef, ReactNode } from 'react';

interface SpinnerProps {
  label?: string;
  size?: 'sm' | 'md' | 'lg';
}

export function Spinner({ label = 'Loading', size = 'md' }: SpinnerProps) {
  return (
    <span className={`spinner spinner--${size}`} role="status" aria-label={label}>
      <span className="spinner__ring" aria-hidden="true" />
    </span>
  );
}

/** Centred spinner for a page or panel whose code or data is loading. */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="page-spinner">
      <Spinner label={label} size="lg" />
    </div>
  );
}

/** A small spinner inside a button whose text already says what is happening. */
export function ButtonSpinner() {
  return (
    <span className="spinner spinner--sm" aria-hidden="true">
      <span className="spinner__ring" />
    </span>
  );
}

interface BusyButtonProps extends Omit<ComponentPropsWithRef<'button'>, 'aria-busy' | 'children'> {
  /** Its action is running: a spinner and `busyLabel` instead of `label`. */
  busy: boolean;
  label: ReactNode;
  busyLabel: string;
}

/** A button whose label turns into a spinner and "…ing..." while its action runs. */
export function BusyButton({ busy, label, busyLabel, ...button }: BusyButtonProps) {
  return (
    <button {...button} aria-busy={busy || undefined}>
      {busy ? (
        <>
          <ButtonSpinner /> {busyLabel}
        </>
      ) : (
        label
      )}
    </button>
  );
}
