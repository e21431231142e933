import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { DefaultValues, FieldValues, Path } from 'react-hook-form';
import { useZodForm, type FormSchema } from '../../lib/form';
import { TextField, type TextFieldProps } from '../Field';
import { BusyButton } from '../Spinner';
import { SavedSecretField, TestConnectionButton } from './fields';

/** What a button of the form does with the checked values: its call, then what follows its answer or failure. */
export interface CredentialsCall<B, A> {
  run: (body: B) => Promise<A>;
  /**
   * The toast and anything else an answer brings. A test the channel refused answers too:
   * the text returned then is shown as the failure.
   */
  done: (answer: A, body: B) => string | void;
  /** The failure's text, shown in the panel beside its buttons. */
  failed: (error: unknown) => string;
}

export interface CredentialsConfig<S, V extends FieldValues, B, T, A> {
  /** The panel's status from the server; undefined while it loads. */
  status: S | undefined;
  /** What the fields show for `status`: the saved values, secrets blank; the keys in the fields' order. */
  values: (status: S | undefined) => V;
  /**
   * What Test, Save (and the panel's own buttons) check and send, built on the payload's schema from
   * @app/shared: the same rules the server applies, plus those of values it keeps (a blank secret).
   */
  schema: (status: S | undefined, action: string) => FormSchema<B>;
  /** Fields blanked after a save: the server keeps them and never sends them back. */
  secrets: readonly Path<V>[];
  test: CredentialsCall<B, T>;
  save: CredentialsCall<B, A>;
  /** Reads the status again after a save, before the panel asks the page to reload. */
  refetch: () => Promise<unknown>;
  onReload: () => void;
}

/**
 * The credentials of an integration panel (a channel's, Gmail's): the form of saved values that
 * follows the server until the user types, Test and Save as mutations, one check for every button.
 * Each problem is said once, where it is: a field's next to it (that field gets the focus), a failed
 * Test or Save beside the buttons (`failure`) until the next attempt or a change of a field. Toasts
 * are for outcomes only: a toast could cover the buttons, and a copy of an inline message says nothing new.
 */
export function useCredentialsForm<S, V extends FieldValues, B, T, A>(config: CredentialsConfig<S, V, B, T, A>) {
  const { status } = config;
  const action = useRef('save');
  const empty = config.values(undefined);
  const form = useZodForm<V, B>(() => config.schema(status, action.current), empty as DefaultValues<V>, {
    // The saved values replace the fields the user has not typed in.
    values: config.values(status),
    resetOptions: { keepDirtyValues: true },
  });

  const [failure, setFailure] = useState<string | null>(null);
  // A failure of values the user has since changed is stale.
  useEffect(() => {
    const subscription = form.watch((_values, { type }) => {
      if (type === 'change') setFailure(null);
    });
    return () => subscription.unsubscribe();
  }, [form]);

  const test = useMutation({ mutationFn: config.test.run });
  const save = useMutation({
    mutationFn: config.save.run,
    onSuccess: async (answer, body) => {
      const refusal = config.save.done(answer, body);
      if (refusal) setFailure(refusal);
      const blank = Object.fromEntries(config.secrets.map((name) => [name, '']));
      // Not the dirty values kept as the status arrives: these are the values now.
      form.reset({ ...form.getValues(), ...blank }, { keepDirtyValues: false, keepFieldsRef: true });
      await config.refetch();
      config.onReload();
    },
    onError: (err) => setFailure(config.save.failed(err)),
  });
  const pending = test.isPending || save.isPending;
  // The answer's toast comes with the buttons' state: these callbacks run as the mutation's result is published.
  const runTest = (body: B) =>
    test.mutate(body, {
      onSuccess: (answer, sent) => {
        const refusal = config.test.done(answer, sent);
        if (refusal) setFailure(refusal);
      },
      onError: (err) => setFailure(config.test.failed(err)),
    });

  /** Checks the values for `next` (each problem at its field), then hands the payload to `onValid`. */
  const check = (next: string, onValid: (body: B) => void) => {
    action.current = next;
    setFailure(null);
    void form.handleSubmit(onValid)();
  };

  return { form, test, save, pending, check, runTest, failure, clearFailure: () => setFailure(null) };
}

export type CredentialField<V extends FieldValues> = Omit<TextFieldProps, 'id' | 'name' | 'error'> & {
  name: Path<V>;
  /** A value the server keeps and never sends back (a password input that a blank keeps). */
  secret?: { saved: boolean; what: string };
};

interface CredentialsFormProps<V extends FieldValues, B> {
  credentials: ReturnType<typeof useCredentialsForm<unknown, V, B, unknown, unknown>>;
  /** The form's accessible name. */
  label: string;
  fields: CredentialField<V>[];
  /** Everything is disabled: a call of the panel is running or its status is loading. */
  disabled: boolean;
  save: { label: string; primary: boolean; first?: boolean };
  /** Between the fields and the buttons. */
  children?: ReactNode;
  /** Buttons after Test and Save. */
  moreActions?: ReactNode;
  /** A button on the other side of the row. */
  startAction?: ReactNode;
  /** Below the buttons. */
  footer?: ReactNode;
}

/** The form of an integration panel's credentials: its fields, Test Connection and Save. */
export function CredentialsForm<V extends FieldValues, B>(props: CredentialsFormProps<V, B>) {
  const { credentials, fields, disabled, save } = props;
  const { form, check } = credentials;
  const { errors } = form.formState;
  const uid = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (credentials.pending) return;
    credentials.save.reset();
    check('save', (body) => credentials.save.mutate(body));
  };

  const testButton = (
    <TestConnectionButton
      testing={credentials.test.isPending}
      disabled={disabled}
      onTest={() => !credentials.pending && check('test', credentials.runTest)}
    />
  );
  const saveButton = (
    <BusyButton
      type="submit"
      className={`btn ${save.primary ? 'btn--primary' : 'btn--secondary'}`}
      disabled={disabled}
      busy={credentials.save.isPending}
      label={save.label}
      busyLabel="Saving..."
    />
  );
  const actions = (
    <div className="settings-form__actions">
      {save.first ? saveButton : testButton}
      {save.first ? testButton : saveButton}
      {props.moreActions}
    </div>
  );

  return (
    <form className="settings-form" onSubmit={submit} noValidate aria-label={props.label}>
      <div className="settings-form__grid">
        {fields.map(({ name, secret, ...field }) => {
          const shared = {
            ...field,
            ...form.register(name),
            id: `${uid}-${name}`,
            error: errors[name]?.message as string | undefined,
            disabled: disabled || field.disabled,
          };
          return secret ? (
            <SavedSecretField key={name} {...shared} {...secret} placeholder={field.placeholder ?? ''} />
          ) : (
            <TextField key={name} {...shared} />
          );
        })}
      </div>
      {props.children}
      {credentials.failure && (
        <div className="alert alert--error" role="alert">
          {credentials.failure}
        </div>
      )}
      {props.startAction ? (
        <div className="settings-form__actions settings-form__actions--split">
          {props.startAction}
          {actions}
        </div>
      ) : (
        actions
      )}
      {props.footer}
    </form>
  );
}
