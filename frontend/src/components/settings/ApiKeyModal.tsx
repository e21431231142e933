import { useId, useRef, useState, type FormEvent } from 'react';
import { SaveSettingSchema, SettingMessages, normalizeSettingKey, type Setting } from '@app/shared';
import { settingsApi, type SaveSettingAnswer } from '../../api/settings';
import { errorText } from '../../api/client';
import { panelToast } from '../../lib/toast';
import { Modal } from '../Modal';
import { BusyButton } from '../Spinner';
import { TextField } from './fields';
import { addIssueErrors } from './useSettingsForm';

type Field = 'key' | 'value' | 'description';
type FieldErrors = Partial<Record<Field, string>>;

const FIELDS: Field[] = ['key', 'value', 'description'];

interface ApiKeyModalProps {
  /** The entry to edit; absent to add a new one. */
  setting?: Setting | null;
  onClose: () => void;
  onSaved: (answer: SaveSettingAnswer) => void;
}

/** Key names as typed: lower case, spaces turned into underscores (docs/product.md, Settings). */
const asTypedKey = (value: string) => value.toLowerCase().replace(/\s/g, '_');

/** docs/product.md (Settings): "Add New API Key" / "Edit API Key". */
export function ApiKeyModal({ setting, onClose, onSaved }: ApiKeyModalProps) {
  const editing = !!setting;
  const uid = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [key, setKey] = useState(setting?.key ?? '');
  const [value, setValue] = useState('');
  const [description, setDescription] = useState(setting?.description ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState('');
  const [saving, setSaving] = useState(false);

  const ids = { key: `${uid}-key`, value: `${uid}-value`, description: `${uid}-description` };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    setServerError('');
    const trimmedValue = value.trim();
    if (editing && !trimmedValue) {
      // docs/product.md (Settings): nothing to change; say so and close without a request.
      panelToast.warning(SettingMessages.noValueChange);
      onClose();
      return;
    }
    const normalizedKey = normalizeSettingKey(editing ? setting.key : key);
    const next: FieldErrors = {};
    if (!normalizedKey) next.key = SettingMessages.keyRequired;
    if (!trimmedValue) next.value = SettingMessages.valueRequired;
    const parsed = SaveSettingSchema.safeParse({ key: normalizedKey, value: trimmedValue, description });
    if (!parsed.success) addIssueErrors(next, parsed.error.issues, FIELDS);
    if (Object.keys(next).length > 0 || !parsed.success) {
      setErrors(next);
      const first = FIELDS.find((field) => next[field]);
      if (first) document.getElementById(ids[first])?.focus();
      return;
    }
    setErrors({});
    if (!editing) setKey(parsed.data.key);
    setSaving(true);
    try {
      const answer = await settingsApi.save(parsed.data);
      panelToast.success(answer?.message || (editing ? SettingMessages.updated : SettingMessages.created));
      onSaved(answer ?? {});
      onClose();
    } catch (err) {
      setSaving(false);
      setServerError(errorText(err, SettingMessages.saveFailed));
      panelToast.error(SettingMessages.saveFailed);
    }
  };

  return (
    <Modal
      title={editing ? 'Edit API Key' : 'Add New API Key'}
      onClose={onClose}
      closeDisabled={saving}
      size="md"
      initialFocus={() => formRef.current?.querySelector<HTMLElement>('input:not([disabled])')}
    >
      <form ref={formRef} className="api-key-form" onSubmit={(event) => void submit(event)} noValidate>
        {serverError && (
          <div className="alert alert--error" role="alert">
            {serverError}
          </div>
        )}
        <TextField
          id={ids.key}
          label="Key Name"
          name="key"
          mono
          value={key}
          placeholder="openai_api_key"
          autoComplete="off"
          disabled={editing || saving}
          error={errors.key}
          // The hint gives way to the error.
          hint={errors.key ? undefined : editing ? 'Key names cannot be changed' : 'Lower case; spaces become underscores.'}
          onChange={(event) => {
            setKey(asTypedKey(event.target.value));
            if (errors.key) setErrors((current) => ({ ...current, key: undefined }));
          }}
        />
        <TextField
          id={ids.value}
          label="Value"
          name="value"
          type="password"
          value={value}
          placeholder={editing ? 'Leave blank to keep current value' : 'Enter sensitive value'}
          autoComplete="new-password"
          disabled={saving}
          error={errors.value}
          onChange={(event) => {
            setValue(event.target.value);
            if (errors.value) setErrors((current) => ({ ...current, value: undefined }));
          }}
        />
        <div className="field">
          <label className="field__label" htmlFor={ids.description}>
            Description
          </label>
          <textarea
            id={ids.description}
            name="description"
            className={`input textarea${errors.description ? ' input--invalid' : ''}`}
            rows={3}
            value={description}
            placeholder="What is this key used for?"
            disabled={saving}
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={errors.description ? `${ids.description}-error` : undefined}
            onChange={(event) => setDescription(event.target.value)}
          />
          {errors.description && (
            <p id={`${ids.description}-error`} className="field__error">
              {errors.description}
            </p>
          )}
        </div>
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
