/**
 * A Schedule card row's button that opens a dialog for the row's version (Schedule, Reschedule, Publish Now): its
 * visible label, then `sr` for assistive technology (the row's channel and version).
 */
export function RowDialogButton({
  label,
  sr,
  onClick,
  variant,
}: {
  label: string;
  sr: string;
  onClick: () => void;
  variant: 'primary' | 'secondary';
}) {
  return (
    <button type="button" className={`btn btn--${variant} btn--sm`} aria-haspopup="dialog" onClick={onClick}>
      {label}
      <span className="sr-only"> {sr}</span>
    </button>
  );
}

/** A row's Schedule (or Reschedule) button: it opens the schedule modal for that row's version. */
export function ScheduleButton({
  label,
  row,
  onClick,
  primary = false,
}: {
  label: 'Schedule' | 'Reschedule';
  /** The row's name for assistive technology (its channel and version), after the visible label. */
  row: string;
  onClick: () => void;
  primary?: boolean;
}) {
  return <RowDialogButton label={label} sr={row} onClick={onClick} variant={primary ? 'primary' : 'secondary'} />;
}
