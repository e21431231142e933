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
  return (
    <button
      type="button"
      className={`btn ${primary ? 'btn--primary' : 'btn--secondary'} btn--sm`}
      aria-haspopup="dialog"
      onClick={onClick}
    >
      {label}
      <span className="sr-only"> {row}</span>
    </button>
  );
}
