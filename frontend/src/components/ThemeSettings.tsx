import { useId } from 'react';
import { THEME_LABELS, THEME_PREFERENCES, useTheme, type ThemePreference } from '../hooks/useTheme';

/** docs/product.md (Settings): Theme Settings, a select of the themes and a label for the current theme. */
export function ThemeSettings() {
  const { preference, theme, setPreference } = useTheme();
  const selectId = useId();
  const titleId = useId();
  const current =
    preference === 'system' ? `${THEME_LABELS.system} (${THEME_LABELS[theme]})` : THEME_LABELS[preference];
  return (
    <section className="card settings-card" aria-labelledby={titleId}>
      <div className="settings-card__header">
        <h2 id={titleId} className="card-title">
          Theme Settings
        </h2>
        <p className="card-description">
          Choose how the app looks. Browser Default follows your system&apos;s light or dark mode.
        </p>
      </div>
      <div className="field field--inline">
        <label className="field__label" htmlFor={selectId}>
          Theme
        </label>
        <select
          id={selectId}
          className="input select"
          value={preference}
          onChange={(event) => setPreference(event.target.value as ThemePreference)}
        >
          {THEME_PREFERENCES.map((value) => (
            <option key={value} value={value}>
              {THEME_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
      <p className="theme-current" aria-live="polite">
        Current theme: <strong>{current}</strong>
      </p>
    </section>
  );
}
