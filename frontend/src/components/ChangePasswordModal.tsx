import { useId } from 'react';
import { useMutation } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ChangePasswordSchema, PASSWORD_MIN_LENGTH, type ChangePasswordInput } from '@app/shared';
import { errorText, request } from '../api/client';
import { useZodForm } from '../lib/form';
import { toast } from '../lib/toast';
import { TextField } from './Field';
import { Modal } from './Modal';
import '../styles/auth-modal.css';

type Field = 'currentPassword' | 'newPassword' | 'confirmPassword';
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
const NEW_PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters, not one of the most common passwords`;

/** The payload's schema, and the confirmation typed the same once the new password itself is fine. */
const ChangePasswordForm = z.looseObject(ChangePasswordSchema().shape).check(
  z.superRefine((values, ctx) => {
    const newPasswordFine = ChangePasswordSchema().shape.newPassword.safeParse(values.newPassword).success;
    if (newPasswordFine && values.confirmPassword !== values.newPassword) {
      ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'The new passwords do not match' });
    }
  }),
);

/** The user menu's "Change password": every other session ends, this browser stays signed in. */
export function ChangePasswordModal({ onClose }: { onClose: () => void }) {
  const uid = useId();
  const form = useZodForm(ChangePasswordForm, { currentPassword: '', newPassword: '', confirmPassword: '' });
  const { errors } = form.formState;
  const id = (field: Field) => `${uid}-${field}`;

  const change = useMutation({
    mutationFn: (body: ChangePasswordInput) => request('auth.changePassword', { body }),
    onSuccess: ({ message }) => {
      toast.success(message);
      onClose();
    },
  });
  const saving = change.isPending;
  const submit = form.handleSubmit(({ currentPassword, newPassword }) =>
    change.mutate({ currentPassword, newPassword }),
  );

  return (
    <Modal
      title="Change password"
      subtitle="You stay signed in here; every other browser and device is signed out."
      onClose={onClose}
      size="sm"
      closeDisabled={saving}
      initialFocus={() => document.getElementById(id('currentPassword'))}
    >
      <form
        className="auth-form"
        noValidate
        onSubmit={(event) => {
          if (saving) return event.preventDefault();
          change.reset();
          void submit(event);
        }}
        aria-busy={saving || undefined}
      >
        {change.error && (
          <div className="alert alert--error" role="alert">
            {errorText(change.error, 'The password could not be changed. Please try again.')}
          </div>
        )}
        {FIELDS.map((field) => (
          <TextField
            key={field}
            // A new password re-checks its confirmation.
            {...form.register(field, field === 'newPassword' ? { deps: 'confirmPassword' } : {})}
            id={id(field)}
            label={LABELS[field]}
            type="password"
            autoComplete={AUTOCOMPLETE[field]}
            disabled={saving}
            error={errors[field]?.message}
            // The hint gives way to the error.
            hint={field === 'newPassword' && !errors[field] ? NEW_PASSWORD_HINT : undefined}
          />
        ))}
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
