import { useState, type ChangeEvent } from 'react';
import { panelToast } from '../../lib/toast';

type FieldErrors<F extends string> = Partial<Record<F, string>>;

/**
 * The typed values of a settings form and their error texts, one a field. `ids` are the fields'
 * input ids, `dirty` says the user has typed since the form was last filled from the server.
 */
export function useSettingsForm<F extends string>(fields: readonly F[], ids: Record<F, string>, empty: Record<F, string>) {
  const [form, setForm] = useState(empty);
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const [dirty, setDirty] = useState(false);

  /** Typing in a field clears its error. */
  const change = (field: F, value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setDirty(true);
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  /** What binds a TextField to the field. */
  const fieldProps = (field: F) => ({
    id: ids[field],
    name: field,
    value: form[field],
    error: errors[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => change(field, event.target.value),
  });

  /**
   * Shows `next` next to the fields, the first problem (or `message`) also as a toast, and focuses
   * the first field with a problem. True when there is no problem.
   */
  const showErrors = (
    next: FieldErrors<F>,
    toastId: (field: F | undefined, text: string) => string,
    message?: string,
  ): boolean => {
    setErrors(next);
    const first = fields.find((field) => next[field]);
    const text = message ?? (first ? next[first] : undefined);
    if (text) panelToast.error(text, { toastId: toastId(first, text) });
    if (first) document.getElementById(ids[first])?.focus();
    return !text;
  };

  return { form, setForm, errors, setErrors, dirty, setDirty, fieldProps, showErrors };
}

/**
 * Adds to `errors` the first message a schema gave for each of `fields`; a field that has an
 * error already keeps it.
 */
export function addIssueErrors<F extends string>(
  errors: FieldErrors<F>,
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  fields: readonly F[],
): FieldErrors<F> {
  for (const issue of issues) {
    const field = issue.path[0] as F;
    if (fields.includes(field) && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}
