import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  LoginSchema,
  Messages,
  PASSWORD_MIN_LENGTH,
  RegisterSchema,
  TIMEZONE_CHOICES,
  defaultTimeZone,
} from '@app/shared';
import { authApi } from '../api/auth';
import { errorText } from '../api/client';
import { useSession } from '../hooks/useSession';
import { useTheme } from '../hooks/useTheme';
import { toast } from '../lib/toast';
import { Logo } from './Logo';
import { useDialog } from './useDialog';
import '../styles/modal.css';
import '../styles/auth-modal.css';

export type AuthMode = 'login' | 'register';

interface AuthModalProps {
  mode: AuthMode;
  onModeChange: (mode: AuthMode) => void;
  onClose: () => void;
}

type FieldName = 'name' | 'surname' | 'email' | 'password' | 'timezone' | 'setupCode';
type FieldErrors = Partial<Record<FieldName, string>>;
const FIELD_ORDER: FieldName[] = ['name', 'surname', 'email', 'password', 'timezone', 'setupCode'];

const SETUP_CODE_HINT =
  'This deployment has no admin yet. Enter the setup code that the command in the stack output SetupCodeCommand prints (not needed for the admin e-mail address chosen at deployment).';

interface Issues {
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>;
}

/** The first message of each field, from the same schema the API validates with. */
function toFieldErrors(error: Issues): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path[0];
    if (typeof key === 'string' && (FIELD_ORDER as string[]).includes(key) && !out[key as FieldName]) {
      out[key as FieldName] = issue.message;
    }
  }
  return out;
}

function zoneLabel(zone: string): string {
  let offset = '';
  try {
    offset =
      new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' })
        .formatToParts(new Date())
        .find((part) => part.type === 'timeZoneName')?.value ?? '';
  } catch {
    offset = '';
  }
  const name = zone.replace(/_/g, ' ');
  return offset && offset !== zone ? `${name} (${offset})` : name;
}

const TABS: { mode: AuthMode; label: string }[] = [
  { mode: 'login', label: 'Login' },
  { mode: 'register', label: 'Register' },
];

/** docs/product.md (Welcome): the login / register modal opened from the welcome screen. */
export function AuthModal({ mode, onModeChange, onClose }: AuthModalProps) {
  const { setUser } = useSession();
  const { theme } = useTheme();
  const uid = useId();
  const headingId = `${uid}-heading`;
  const panelId = `${uid}-panel`;
  const dialogRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const tabRefs = useRef<Partial<Record<AuthMode, HTMLButtonElement | null>>>({});

  const browserZone = useMemo(defaultTimeZone, []);
  const zones = useMemo(() => {
    const list: string[] = [...TIMEZONE_CHOICES];
    return list.includes(browserZone) ? list : [browserZone, ...list];
  }, [browserZone]);

  const [values, setValues] = useState<Record<FieldName, string>>({
    name: '',
    surname: '',
    email: '',
    password: '',
    timezone: browserZone,
    setupCode: '',
  });
  const [attempted, setAttempted] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState('');
  const [busy, setBusy] = useState(false);
  // The last error toast of this modal: replaced by the next attempt, gone after a success.
  const errorToastRef = useRef<ReturnType<typeof toast.error> | null>(null);

  useDialog(dialogRef, { onClose, initialFocus: () => formRef.current?.querySelector<HTMLElement>('input, select') });

  const isRegister = mode === 'register';
  // A deployment without an admin yet may ask for its setup code (AWS); a laptop never does.
  const setup = useQuery({ queryKey: ['auth-setup'], queryFn: authApi.setup, enabled: isRegister, retry: false, staleTime: 0 });
  const setupCodeRequired = isRegister && setup.data?.setupCodeRequired === true;
  const fields: FieldName[] = isRegister ? FIELD_ORDER.filter((f) => f !== 'setupCode' || setupCodeRequired) : ['email', 'password'];

  const parseRegister = (next: Record<FieldName, string>) =>
    RegisterSchema.safeParse({
      name: next.name,
      surname: next.surname,
      email: next.email,
      password: next.password,
      timezone: next.timezone,
      ...(setupCodeRequired ? { setupCode: next.setupCode } : {}),
    });
  const parseLogin = (next: Record<FieldName, string>) =>
    LoginSchema.safeParse({ email: next.email, password: next.password });
  const validate = (next: Record<FieldName, string>): FieldErrors => {
    const result = isRegister ? parseRegister(next) : parseLogin(next);
    return result.success ? {} : toFieldErrors(result.error);
  };

  // A new mode starts with a clean slate of messages.
  useEffect(() => {
    setAttempted(false);
    setErrors({});
    setServerError('');
  }, [mode]);

  const update = (field: FieldName, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (attempted) setErrors(validate(next));
  };

  const switchMode = (next: AuthMode) => {
    if (next !== mode && !busy) onModeChange(next);
  };

  const onTabKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) return;
    event.preventDefault();
    const next: AuthMode =
      event.key === 'Home' ? 'login' : event.key === 'End' ? 'register' : mode === 'login' ? 'register' : 'login';
    switchMode(next);
    tabRefs.current[next]?.focus();
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setAttempted(true);
    setServerError('');
    if (errorToastRef.current !== null) toast.dismiss(errorToastRef.current);
    errorToastRef.current = null;
    // One parse with the same schema the API uses: its output (trimmed) is the payload sent.
    const registration = isRegister ? parseRegister(values) : null;
    const credentials = isRegister ? null : parseLogin(values);
    const failure = registration?.error ?? credentials?.error;
    if (failure) {
      const fieldErrors = toFieldErrors(failure);
      setErrors(fieldErrors);
      const first = FIELD_ORDER.find((field) => fieldErrors[field]);
      if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      if (registration?.success) {
        const answer = await authApi.register(registration.data);
        if (answer?.user) {
          setUser(answer.user);
          toast.success(Messages.adminCreated);
        } else {
          // The account awaits an admin's approval: back to the login mode, modal closed.
          setBusy(false);
          onModeChange('login');
          onClose();
          toast.success(Messages.registrationReceived);
        }
      } else if (credentials?.success) {
        const answer = await authApi.login(credentials.data);
        if (!answer?.user) throw new Error('No user in the login answer');
        setUser(answer.user);
        toast.success(Messages.loggedIn);
      }
    } catch (err) {
      const text = errorText(err, isRegister ? Messages.registrationFailed : Messages.loginFailed, 'error');
      setServerError(text);
      setBusy(false);
      errorToastRef.current = toast.error(text);
    }
  };

  const fieldProps = (field: FieldName, hint?: string) => {
    const error = errors[field];
    const id = `${uid}-${field}`;
    const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : '';
    return {
      id,
      name: field,
      value: values[field],
      'aria-invalid': error ? true : undefined,
      'aria-describedby': describedBy || undefined,
      className: `input${error ? ' input--invalid' : ''}`,
    };
  };

  const fieldMessages = (field: FieldName, hint?: string) => {
    const id = `${uid}-${field}`;
    return (
      <>
        {errors[field] ? (
          <p id={`${id}-error`} className="field__error">
            {errors[field]}
          </p>
        ) : (
          hint && (
            <p id={`${id}-hint`} className="field__hint">
              {hint}
            </p>
          )
        )}
      </>
    );
  };

  const passwordHint = isRegister ? `At least ${PASSWORD_MIN_LENGTH} characters` : undefined;
  const title = isRegister ? 'Register' : 'Login';

  return (
    <div
      className="modal-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget && !busy) onClose();
      }}
    >
      <div
        ref={dialogRef}
        className="modal auth-modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={headingId}
      >
        <button type="button" className="modal__close" aria-label="Close" onClick={onClose} disabled={busy}>
          <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
            <path d="M5 5l10 10M15 5L5 15" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
          </svg>
        </button>
        <div className="auth-modal__brand">
          <Logo variant={theme} />
        </div>
        <h2 id={headingId} className="auth-modal__title">
          {title}
        </h2>
        <p className="auth-modal__subtitle">
          {isRegister
            ? 'Create your account. New accounts are activated by an admin.'
            : 'Welcome back. Sign in to continue.'}
        </p>

        <div className="tabs" role="tablist" aria-label="Authentication mode">
          {TABS.map((tab) => (
            <button
              key={tab.mode}
              ref={(node) => {
                tabRefs.current[tab.mode] = node;
              }}
              type="button"
              role="tab"
              id={`${uid}-tab-${tab.mode}`}
              aria-selected={mode === tab.mode}
              aria-controls={panelId}
              tabIndex={mode === tab.mode ? 0 : -1}
              className={`tabs__tab${mode === tab.mode ? ' is-active' : ''}`}
              onClick={() => switchMode(tab.mode)}
              onKeyDown={onTabKeyDown}
            >
              {tab.label}
            </button>
          ))}
        </div>

        <form
          ref={formRef}
          id={panelId}
          role="tabpanel"
          aria-labelledby={`${uid}-tab-${mode}`}
          className="auth-form"
          noValidate
          onSubmit={onSubmit}
          aria-busy={busy || undefined}
        >
          {serverError && (
            <div className="alert alert--error" role="alert">
              {serverError}
            </div>
          )}
          {fields.includes('name') && (
            <div className="field-row">
              <div className="field">
                <label className="field__label" htmlFor={`${uid}-name`}>
                  Name
                </label>
                <input
                  {...fieldProps('name')}
                  type="text"
                  autoComplete="given-name"
                  disabled={busy}
                  onChange={(e) => update('name', e.target.value)}
                />
                {fieldMessages('name')}
              </div>
              <div className="field">
                <label className="field__label" htmlFor={`${uid}-surname`}>
                  Surname
                </label>
                <input
                  {...fieldProps('surname')}
                  type="text"
                  autoComplete="family-name"
                  disabled={busy}
                  onChange={(e) => update('surname', e.target.value)}
                />
                {fieldMessages('surname')}
              </div>
            </div>
          )}
          <div className="field">
            <label className="field__label" htmlFor={`${uid}-email`}>
              Email
            </label>
            <input
              {...fieldProps('email')}
              type="email"
              inputMode="email"
              autoComplete={isRegister ? 'email' : 'username'}
              placeholder="you@company.com"
              disabled={busy}
              onChange={(e) => update('email', e.target.value)}
            />
            {fieldMessages('email')}
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${uid}-password`}>
              Password
            </label>
            <input
              {...fieldProps('password', passwordHint)}
              type="password"
              autoComplete={isRegister ? 'new-password' : 'current-password'}
              disabled={busy}
              onChange={(e) => update('password', e.target.value)}
            />
            {fieldMessages('password', passwordHint)}
          </div>
          {fields.includes('timezone') && (
            <div className="field">
              <label className="field__label" htmlFor={`${uid}-timezone`}>
                Timezone
              </label>
              <select
                {...fieldProps('timezone')}
                className={`input select${errors.timezone ? ' input--invalid' : ''}`}
                disabled={busy}
                onChange={(e) => update('timezone', e.target.value)}
              >
                {zones.map((zone) => (
                  <option key={zone} value={zone}>
                    {zoneLabel(zone)}
                    {zone === browserZone && !(TIMEZONE_CHOICES as readonly string[]).includes(zone) ? ' (this browser)' : ''}
                  </option>
                ))}
              </select>
              {fieldMessages('timezone')}
            </div>
          )}
          {fields.includes('setupCode') && (
            <div className="field">
              <label className="field__label" htmlFor={`${uid}-setupCode`}>
                Setup code
              </label>
              <input
                {...fieldProps('setupCode', SETUP_CODE_HINT)}
                type="text"
                autoComplete="off"
                spellCheck={false}
                disabled={busy}
                onChange={(e) => update('setupCode', e.target.value)}
              />
              {fieldMessages('setupCode', SETUP_CODE_HINT)}
            </div>
          )}
          <button type="submit" className="btn btn--primary btn--block btn--lg" disabled={busy} aria-busy={busy || undefined}>
            {busy ? 'Please wait...' : isRegister ? 'Create account' : 'Login'}
          </button>
          <p className="auth-form__switch">
            {isRegister ? 'Already have an account? ' : 'New here? '}
            <button type="button" className="link-button" onClick={() => switchMode(isRegister ? 'login' : 'register')}>
              {isRegister ? 'Log in' : 'Create an account'}
            </button>
          </p>
        </form>
      </div>
    </div>
  );
}
