import { useId, type ReactNode } from 'react';

/** A titled settings card whose content comes later. */
export function ComingSoonPanel({ title, badge, children }: { title: string; badge?: string; children?: ReactNode }) {
  const titleId = useId();
  return (
    <section className="card settings-card settings-card--placeholder" aria-labelledby={titleId}>
      <div className="settings-card__header settings-card__header--row">
        <h2 id={titleId} className="card-title">
          {title}
        </h2>
        {badge && <span className="badge badge--accent">{badge}</span>}
      </div>
      <p className="muted">{children ?? 'Coming soon'}</p>
    </section>
  );
}
