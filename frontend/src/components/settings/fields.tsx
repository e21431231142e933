import { useEffect, useRef, useState, type ReactNode } from 'react';
import { timing } from '../../lib/timing';
import { settingsToast } from '../../lib/toast';
import { TextField, type TextFieldProps } from '../Field';
import { BusyButton } from '../Spinner';
import { PanelMessages } from './messages';

interface SavedSecretFieldProps extends Omit<TextFieldProps, 'type' | 'required' | 'hint'> {
  /** A value is saved (the server never sends it back): a blank field keeps it. */
  saved: boolean;
  /** What the value is, in the texts: "secret", "password". */
  what: string;
  /** The placeholder while nothing is saved. */
  placeholder: string;
}

/** A password input for a value the server keeps: required until one is saved, then blank keeps it. */
export function SavedSecretField({ saved, what, placeholder, ...field }: SavedSecretFieldProps) {
  return (
    <TextField
      {...field}
      type="password"
      autoComplete="new-password"
      placeholder={saved ? `Leave blank to keep the saved ${what}` : placeholder}
      required={!saved}
      hint={saved ? `A ${what} is saved. Type a new one only to replace it.` : undefined}
    />
  );
}

async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Not allowed here (permissions, insecure origin): try the older way.
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    if (!document.execCommand?.('copy')) throw new Error('copy refused');
  } finally {
    area.remove();
  }
}

/** Copies `value`; the label reads "Copied!" for 2 s (docs/product.md, Settings). */
export function CopyButton({ value, label = 'Copy', what }: { value: string; label?: string; what: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await writeClipboard(value);
    } catch {
      settingsToast.error(PanelMessages.copyFailed);
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), timing.copyFeedbackMs);
  };

  return (
    <button
      type="button"
      className={`btn btn--secondary btn--sm copy-button${copied ? ' is-copied' : ''}`}
      onClick={() => void copy()}
      aria-label={copied ? undefined : `${label} ${what}`}
    >
      {copied ? 'Copied!' : label}
      <span className="sr-only" aria-live="polite">
        {copied ? `${what} copied to the clipboard` : ''}
      </span>
    </button>
  );
}

/** A value to copy somewhere else (a redirect URI, a signing secret), shown in full with a copy button. */
export function CopyableValue({
  label,
  value,
  what,
  hint,
}: {
  label: string;
  value: string;
  what: string;
  hint?: ReactNode;
}) {
  return (
    <div className="copyable">
      <span className="copyable__label">{label}</span>
      <div className="copyable__row">
        <code className="copyable__value">{value}</code>
        <CopyButton value={value} what={what} />
      </div>
      {hint && <p className="field__hint">{hint}</p>}
    </div>
  );
}

/** The connection line at the top of an integration panel. */
export function IntegrationStatus({
  tone,
  children,
}: {
  tone: 'connected' | 'warning' | 'error' | 'idle';
  children: ReactNode;
}) {
  return (
    <div className={`integration-status integration-status--${tone}`} role="status">
      <span className="integration-status__dot" aria-hidden="true" />
      <div className="integration-status__text">{children}</div>
    </div>
  );
}

/** "Connected" / "Not connected" next to a panel's title. */
export function ConnectionBadge({ connected }: { connected: boolean }) {
  return (
    <span className={`badge${connected ? ' badge--success' : ''}`}>{connected ? 'Connected' : 'Not connected'}</span>
  );
}

/** The "Test Connection" button of an integration panel. */
export function TestConnectionButton({
  testing,
  disabled,
  onTest,
}: {
  testing: boolean;
  disabled: boolean;
  onTest: () => void;
}) {
  return (
    <BusyButton
      type="button"
      className="btn btn--secondary"
      onClick={onTest}
      disabled={disabled}
      busy={testing}
      label="Test Connection"
      busyLabel="Testing..."
    />
  );
}
