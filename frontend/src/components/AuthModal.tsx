import { useEffect, useId, useMemo, useRef, type FormEvent, type KeyboardEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import {
  LoginSchema,
  Messages,
  PASSWORD_MIN_LENGTH,
  RegisterSchema,
  TIMEZONE_CHOICES,
  defaultTimeZone,
  type LoginInput,
  type RegisterInput,
} from '@app/shared';
import { errorText, request } from '../api/client';
import { useSession } from '../hooks/useSession';
import { useTheme } from '../hooks/useTheme';
import { useZodForm } from '../lib/form';
import { toast } from '../lib/toast';
import { Field, TextField } from './Field';
import { Logo } from './Logo';
import { useDialog } from './useDialog';
import '../styles/modal.css';
import '../styles/auth-modal.css';

export type AuthMode = 'login' | 'register';

type AuthValues = Record<'name' | 'surname' | 'email' | 'password' | 'timezone' | 'setupCode', string>;

interface AuthModalProps {
  mode: AuthMode;
  onModeChange: (mode: AuthMode) => void;
  onClose: () => void;
  /** The address to start from (the invitation page's: the invitee logs in with the invited address). */
  email?: string;
}

const SETUP_CODE_HINT =
  'This deployment has no admin yet. Enter the setup code that the command in the stack output SetupCodeCommand prints (not needed for the admin e-mail address chosen at deployment).';

function zoneOffset(zone: string): string {
  try {
    return (
      new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' })
        .formatToParts(new Date())
        .find((part) => part.type === 'timeZoneName')?.value ?? ''
    );
  } catch {
    return '';
  }
}

function zoneLabel(zone: string): string {
  const offset = zoneOffset(zone);
  const name = zone.replace(/_/g, ' ');
  return offset && offset !== zone ? `${name} (${offset})` : name;
}

const TABS: { mode: AuthMode; label: string }[] = [
  { mode: 'login', label: 'Login' },
  { mode: 'register', label: 'Register' },
];

/** docs/product.md (Welcome): the login / register modal opened from the welcome screen. */
export function AuthModal({ mode, onModeChange, onClose, email = '' }: AuthModalProps) {
  const { setUser } = useSession();
  const { theme } = useTheme();
  const uid = useId();
  const headingId = `${uid}-heading`;
  const panelId = `${uid}-panel`;
  const dialogRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const tabRefs = useRef<Partial<Record<AuthMode, HTMLButtonElement | null>>>({});

  const browserZone = useMemo(() => defaultTimeZone(), []);
  const zones = useMemo(() => {
    const list: string[] = [...TIMEZONE_CHOICES];
    return list.includes(browserZone) ? list : [browserZone, ...list];
  }, [browserZone]);

  useDialog(dialogRef, { onClose, initialFocus: () => formRef.current?.querySelector<HTMLElement>('input, select') });

  const isRegister = mode === 'register';
  // A deployment without an admin yet may ask for its setup code (AWS); a laptop never does.
  const setup = useQuery({
    queryKey: ['auth-setup'],
    queryFn: () => request('auth.setup'),
    enabled: isRegister,
    retry: false,
    staleTime: 0,
  });
  const setupCodeRequired = isRegister && setup.data?.setupCodeRequired === true;

  // The same schema the API validates with; the other mode's fields stay in the form but not in the payload.
  const form = useZodForm(
    isRegister
      ? z.object((setupCodeRequired ? RegisterSchema() : z.omit(RegisterSchema(), { setupCode: true })).shape)
      : z.object(LoginSchema().shape),
    { name: '', surname: '', email, password: '', timezone: browserZone, setupCode: '' },
  );
  const { errors } = form.formState;

  const send = useMutation({
    mutationFn: (body: LoginInput | RegisterInput) =>
      isRegister ? request('auth.register', { body: body as RegisterInput }) : request('auth.login', { body }),
    onSuccess: (answer) => {
      // Registering answers no user unless it made the first account (the admin, signed in at once).
      if (answer.user) {
        setUser(answer.user);
        toast.success(isRegister ? Messages.adminCreated : Messages.loggedIn);
        return;
      }
      // The account awaits an admin's approval: back to the login mode, modal closed.
      onModeChange('login');
      onClose();
      toast.success(Messages.registrationReceived);
    },
    // The failure is shown in the form (send.error), once: a toast would repeat it.
  });
  const busy = send.isPending;

  // A new mode starts with a clean slate of messages, and its fields register again in their order (focus goes to the first error).
  const { reset: forgetSend } = send;
  useEffect(() => {
    form.reset(form.getValues());
    forgetSend();
  }, [mode, form, forgetSend]);

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

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    send.reset();
    // The schema's output (trimmed) is the payload sent.
    void form.handleSubmit((body) => send.mutate(body))(event);
  };

  /** A field's input props: the error, and the hint unless there is an error. */
  const field = (name: keyof AuthValues, hint?: string) => ({
    ...form.register(name),
    id: `${uid}-${name}`,
    error: errors[name]?.message,
    hint: errors[name] ? undefined : hint,
    disabled: busy,
  });

  const passwordHint = isRegister ? `At least ${PASSWORD_MIN_LENGTH} characters` : undefined;
  const title = isRegister ? 'Register' : 'Login';

  return (
    <div
      className="modal-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget && !busy) onClose();
      }}
    >
      <div ref={dialogRef} className="modal auth-modal" role="dialog" aria-modal="true" aria-labelledby={headingId}>
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
          // A failure of values the user has since changed is stale.
          onChange={() => send.isError && send.reset()}
          aria-busy={busy || undefined}
        >
          {send.error && (
            <div className="alert alert--error" role="alert">
              {errorText(send.error, isRegister ? Messages.registrationFailed : Messages.loginFailed, 'error')}
            </div>
          )}
          {isRegister && (
            <div className="field-row">
              <TextField {...field('name')} label="Name" type="text" autoComplete="given-name" />
              <TextField {...field('surname')} label="Surname" type="text" autoComplete="family-name" />
            </div>
          )}
          <TextField
            {...field('email')}
            label="Email"
            type="email"
            inputMode="email"
            autoComplete={isRegister ? 'email' : 'username'}
            placeholder="you@company.com"
          />
          <TextField
            {...field('password', passwordHint)}
            label="Password"
            type="password"
            autoComplete={isRegister ? 'new-password' : 'current-password'}
          />
          {isRegister && (
            <Field id={`${uid}-timezone`} label="Timezone" error={errors.timezone?.message}>
              {(aria) => (
                <select
                  {...aria}
                  {...form.register('timezone')}
                  id={`${uid}-timezone`}
                  className={`input select${errors.timezone ? ' input--invalid' : ''}`}
                  disabled={busy}
                >
                  {zones.map((zone) => (
                    <option key={zone} value={zone}>
                      {zoneLabel(zone)}
                      {zone === browserZone && !(TIMEZONE_CHOICES as readonly string[]).includes(zone)
                        ? ' (this browser)'
                        : ''}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
          {setupCodeRequired && (
            <TextField {...field('setupCode', SETUP_CODE_HINT)} label="Setup code" type="text" autoComplete="off" />
          )}
          <button
            type="submit"
            className="btn btn--primary btn--block btn--lg"
            disabled={busy}
            aria-busy={busy || undefined}
          >
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
