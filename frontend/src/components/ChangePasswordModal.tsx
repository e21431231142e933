import { useId, useRef, useState, type FormEvent } from 'react';
import { ChangePasswordSchema, Messages, PASSWORD_MIN_LENGTH } from '@app/shared';
import { authApi } from '../api/auth';
import { errorText } from '../api/client';
import { toast } from '../lib/toast';
import { Modal } from './Modal';
import '../styles/auth-modal.css';

type Field = 'currentPassword' | 'newPassword' | 'confirmPassword';
type FieldErrors = Partial<Record<Field, string>>;
const FIELDS: Field[] = ['currentPassword', 'newPassword', 'confirmPassword'];
const LABELS: Record<Field, string> = {
  currentPassword: 'Current password',
  newPassword: 'New password',
  confirmPassword: 'Confirm new password',
};
const AUTOCOMPLETE: Record<Field, string> = {
  currentPassword: 'current-password',
  newPassword: 'new-password',
  confirmPassword: 'new-password',
};

/** The user menu's "Change password": every other session ends, this browser stays signed in. */
export function ChangePasswordModal({ onClose }: { onClose: () => void }) {
  const uid = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Record<Field, string>>({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState('');
  const [saving, setSaving] = useState(false);
  const id = (field: Field) => `${uid}-${field}`;

  const check = (next: Record<Field, string>): FieldErrors => {
    const out: FieldErrors = {};
    const parsed = ChangePasswordSchema.safeParse({ currentPassword: next.currentPassword, newPassword: next.newPassword });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as Field;
        out[key] ??= issue.message;
      }
    }
    if (!out.newPassword && next.confirmPassword !== next.newPassword) out.confirmPassword = 'The new passwords do not match';
    return out;
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    setServerError('');
    const found = check(values);
    setErrors(found);
    const first = FIELDS.find((field) => found[field]);
    if (first) {
      document.getElementById(id(first))?.focus();
      return;
    }
    setSaving(true);
    try {
      const answer = await authApi.changePassword({ currentPassword: values.currentPassword, newPassword: values.newPassword });
      toast.success(answer?.message ?? Messages.passwordChanged);
      onClose();
    } catch (err) {
      setServerError(errorText(err, 'The password could not be changed. Please try again.'));
      setSaving(false);
    }
  };

  return (
    <Modal
      title="Change password"
      subtitle="You stay signed in here; every other browser and device is signed out."
      onClose={onClose}
      size="sm"
      closeDisabled={saving}
      initialFocus={() => document.getElementById(id('currentPassword'))}
    >
      <form ref={formRef} className="auth-form" noValidate onSubmit={submit} aria-busy={saving || undefined}>
        {serverError && (
          <div className="alert alert--error" role="alert">
            {serverError}
          </div>
        )}
        {FIELDS.map((field) => {
          const error = errors[field];
          const hint = field === 'newPassword' ? `At least ${PASSWORD_MIN_LENGTH} characters, not one of the most common passwords` : undefined;
          const describedBy = error ? `${id(field)}-error` : hint ? `${id(field)}-hint` : undefined;
          return (
            <div className="field" key={field}>
              <label className="field__label" htmlFor={id(field)}>
                {LABELS[field]}
              </label>
              <input
                id={id(field)}
                name={field}
                type="password"
                autoComplete={AUTOCOMPLETE[field]}
                className={`input${error ? ' input--invalid' : ''}`}
                value={values[field]}
                aria-invalid={error ? true : undefined}
                aria-describedby={describedBy}
                disabled={saving}
                onChange={(e) => {
                  const next = { ...values, [field]: e.target.value };
                  setValues(next);
                  if (Object.keys(errors).length) setErrors(check(next));
                }}
              />
              {error ? (
                <p id={`${id(field)}-error`} className="field__error">
                  {error}
                </p>
              ) : (
                hint && (
                  <p id={`${id(field)}-hint`} className="field__hint">
                    {hint}
                  </p>
                )
              )}
            </div>
          );
        })}
        <div className="modal__footer">
          <button type="button" className="btn btn--secondary" onClick={onClose} disabled={saving}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={saving} aria-busy={saving || undefined}>
            {saving ? 'Please wait...' : 'Change password'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
