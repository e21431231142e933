import { useId, useRef, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import {
  NewSettingSchema,
  SaveSettingSchema,
  SettingMessages,
  typedSettingKey,
  type SaveSettingInput,
  type Setting,
} from '@app/shared';
import type { SaveSettingAnswer } from '@app/shared/api';
import { errorText, request } from '../../api/client';
import { useZodForm } from '../../lib/form';
import { settingsToast } from '../../lib/toast';
import { Field, TextField } from '../Field';
import { Modal } from '../Modal';
import { BusyButton } from '../Spinner';

interface ApiKeyModalProps {
  /** The entry to edit; absent to add a new one. */
  setting?: Setting | null;
  onClose: () => void;
  onSaved: (answer: SaveSettingAnswer) => void;
}

/** docs/product.md (Settings): "Add New API Key" / "Edit API Key". */
export function ApiKeyModal({ setting, onClose, onSaved }: ApiKeyModalProps) {
  const editing = !!setting;
  const uid = useId();
  const formRef = useRef<HTMLFormElement>(null);
  // Editing, a blank value keeps the saved one (it is left out of the request); a new key needs one.
  const form = useZodForm<{ key: string; value: string; description: string }, SaveSettingInput>(
    editing ? SaveSettingSchema() : NewSettingSchema(),
    { key: setting?.key ?? '', value: '', description: setting?.description ?? '' },
  );
  const { errors } = form.formState;
  const key = form.register('key');

  const save = useMutation({
    mutationFn: (body: SaveSettingInput) => request('settings.save', { body }),
    onSuccess: (answer) => {
      settingsToast.success(answer.message);
      onSaved(answer);
      onClose();
    },
  });
  const saving = save.isPending;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    save.reset();
    const unchanged = (value: unknown, saved = '') => String(value ?? '').trim() === saved.trim();
    if (
      editing &&
      unchanged(form.getValues('value')) &&
      unchanged(form.getValues('description'), setting.description)
    ) {
      // docs/product.md (Settings): nothing to change; say so and close without a request.
      settingsToast.warning(SettingMessages.noValueChange);
      onClose();
      return;
    }
    void form.handleSubmit((body) => {
      if (!editing) form.setValue('key', body.key);
      save.mutate(body);
    })(event);
  };

  return (
    <Modal
      title={editing ? 'Edit API Key' : 'Add New API Key'}
      onClose={onClose}
      closeDisabled={saving}
      size="md"
      initialFocus={() => formRef.current?.querySelector<HTMLElement>('input:not([disabled])')}
    >
      <form ref={formRef} className="api-key-form" onSubmit={submit} noValidate>
        {save.error && (
          <div className="alert alert--error" role="alert">
            {errorText(save.error, SettingMessages.saveFailed)}
          </div>
        )}
        <TextField
          {...key}
          id={`${uid}-key`}
          label="Key Name"
          mono
          placeholder="openai_api_key"
          autoComplete="off"
          disabled={editing || saving}
          error={errors.key?.message}
          // The hint gives way to the error.
          hint={
            errors.key ? undefined : editing ? 'Key names cannot be changed' : 'Lower case; spaces become underscores.'
          }
          onChange={(event) => {
            event.target.value = typedSettingKey(event.target.value);
            return key.onChange(event);
          }}
        />
        <TextField
          // The value is checked and sent trimmed; left blank while editing, it is not sent at all.
          {...form.register('value', {
            setValueAs: (value: string) => (editing ? value.trim() || undefined : value.trim()),
          })}
          id={`${uid}-value`}
          label="Value"
          type="password"
          placeholder={editing ? 'Leave blank to keep current value' : 'Enter sensitive value'}
          autoComplete="new-password"
          disabled={saving}
          error={errors.value?.message}
        />
        <Field id={`${uid}-description`} label="Description" error={errors.description?.message}>
          {(aria) => (
            <textarea
              {...aria}
              {...form.register('description')}
              id={`${uid}-description`}
              className={`input textarea${errors.description ? ' input--invalid' : ''}`}
              rows={3}
              placeholder="What is this key used for?"
              disabled={saving}
            />
          )}
        </Field>
        <div className="modal__footer">
          <button type="button" className="btn btn--secondary" onClick={onClose} disabled={saving}>
            Cancel
          </button>
          <BusyButton
            type="submit"
            className="btn btn--primary"
            disabled={saving}
            busy={saving}
            label={editing ? 'Update' : 'Save'}
            busyLabel={editing ? 'Updating...' : 'Saving...'}
          />
        </div>
      </form>
    </Modal>
  );
}
