import type { ComponentPropsWithRef, ReactNode } from 'react';

/** What ties a control to its label's error and hint for screen readers. */
export interface FieldAria {
  'aria-invalid'?: true;
  'aria-describedby'?: string;
  'aria-required'?: true;
}

interface FieldProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  /** The field's error (react-hook-form's `errors.<name>?.message`). */
  error?: string;
  /** Marks the field as required (asterisk and aria-required); checking is the form's job. */
  required?: boolean;
  /** The control, given the attributes that tie it to the error and hint. */
  children: (aria: FieldAria) => ReactNode;
}

/** A labelled control with an optional error and hint, wired for screen readers. */
export function Field({ id, label, hint, error, required, children }: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label className={`field__label${required ? ' field__label--required' : ''}`} htmlFor={id}>
        {label}
      </label>
      {children({
        'aria-required': required || undefined,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy,
      })}
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
    </div>
  );
}

export interface TextFieldProps extends Omit<ComponentPropsWithRef<'input'>, 'id' | 'required'> {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  required?: boolean;
  mono?: boolean;
}

/** A labelled input (spread react-hook-form's `register(name)` into it) with an optional hint and error. */
export function TextField({ id, label, hint, error, required, mono, className, ...input }: TextFieldProps) {
  const classes = ['input', mono && 'input--mono', error && 'input--invalid', className].filter(Boolean).join(' ');
  return (
    <Field id={id} label={label} hint={hint} error={error} required={required}>
      {(aria) => <input id={id} className={classes} spellCheck={false} {...aria} {...input} />}
    </Field>
  );
}
