import { lazy, Suspense, useId, useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import * as z from 'zod/mini';
import {
  InvitedRegisterSchema,
  PASSWORD_MIN_LENGTH,
  ROLE_DESCRIPTIONS,
  ROLE_NAMES,
  TIMEZONE_CHOICES,
  defaultTimeZone,
  type InvitationPreview,
  type InvitedRegisterInput,
} from '@app/shared';
import { errorText, request } from '../api/client';
import { Field, TextField } from '../components/Field';
import { Logo } from '../components/Logo';
import { useSession } from '../hooks/useSession';
import { useTheme } from '../hooks/useTheme';
import { WORKSPACES_QUERY_KEY, useSwitchWorkspace } from '../hooks/useWorkspaces';
import { useZodForm } from '../lib/form';
import { toast } from '../lib/toast';
import '../styles/welcome.css';
// The login modal of the welcome page, fetched when asked for: logging in here keeps the invitation on screen.
const AuthModal = lazy(() => import('../components/AuthModal').then((module) => ({ default: module.AuthModal })));
import '../styles/auth-modal.css';
import '../styles/workspaces.css';

/**
 * docs/product.md (Workspaces): the e-mailed invitation link. Signed in as the invited address, Accept
 * joins the workspace; signed out, the invitee registers through it (the address is the invitation's) or
 * signs in first. The token travels in a POST body, never to another address.
 */
export default function InvitePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { theme } = useTheme();
  const { user } = useSession();
  const preview = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => request('workspaces.invitation', { body: { token } }),
    retry: false,
    enabled: Boolean(token),
  });
  const invitation = preview.data;
  return (
    <div className="welcome invite-page">
      <main className="welcome__main">
        <section className="welcome-card invite-card" aria-labelledby="invite-title">
          <Logo variant={theme} className="welcome-card__logo" />
          <p className="welcome-card__eyebrow">Invitation</p>
          <h1 id="invite-title" className="welcome-card__title">
            {invitation ? `Join ${invitation.workspaceName}` : 'Workspace invitation'}
          </h1>
          {!token && (
            <p role="alert" className="alert alert--error">
              This invitation link is not valid. Ask the workspace owner for a new one.
            </p>
          )}
          {token && preview.isPending && <p className="welcome-card__lead">Loading…</p>}
          {preview.error && (
            <p role="alert" className="alert alert--error">
              {errorText(preview.error, 'The invitation could not be loaded. Please try again.')}
            </p>
          )}
          {invitation && (
            <>
              <p className="welcome-card__lead">
                {invitation.invitedBy} invited <strong>{invitation.email}</strong> to the workspace{' '}
                <strong>{invitation.workspaceName}</strong> as {ROLE_NAMES[invitation.role]} (
                {ROLE_DESCRIPTIONS[invitation.role].toLowerCase()}).
              </p>
              {user ? (
                <Accept token={token} invitation={invitation} signedInAs={user.email} />
              ) : (
                <Register token={token} invitation={invitation} />
              )}
            </>
          )}
        </section>
      </main>
    </div>
  );
}

function Accept({
  token,
  invitation,
  signedInAs,
}: {
  token: string;
  invitation: InvitationPreview;
  signedInAs: string;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const switchTo = useSwitchWorkspace();
  const accept = useMutation({
    mutationFn: () => request('workspaces.accept', { body: { token } }),
    onSuccess: async ({ workspace, message }) => {
      await queryClient.invalidateQueries({ queryKey: WORKSPACES_QUERY_KEY });
      switchTo(workspace);
      toast.success(message);
      navigate('/dashboard', { replace: true });
    },
  });
  if (signedInAs.trim().toLowerCase() !== invitation.email)
    return (
      <p role="alert" className="alert alert--warning">
        You are signed in as {signedInAs}. This invitation is for {invitation.email}: log out and sign in with that
        address, or register through this link once logged out.
      </p>
    );
  return (
    <div className="invite-actions">
      {accept.error && (
        <p role="alert" className="alert alert--error">
          {errorText(accept.error, 'The invitation could not be accepted. Please try again.')}
        </p>
      )}
      <div className="welcome-card__actions">
        <button
          type="button"
          className="btn btn--primary btn--lg"
          disabled={accept.isPending}
          onClick={() => accept.mutate()}
        >
          {accept.isPending ? 'Joining…' : `Join ${invitation.workspaceName}`}
        </button>
        <Link className="btn btn--secondary btn--lg" to="/dashboard">
          Not now
        </Link>
      </div>
    </div>
  );
}

type RegisterValues = Omit<InvitedRegisterInput, 'token'>;

function Register({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const uid = useId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { setUser } = useSession();
  const switchTo = useSwitchWorkspace();
  const browserZone = useMemo(() => defaultTimeZone(), []);
  const zones = useMemo(() => {
    const list: string[] = [...TIMEZONE_CHOICES];
    return list.includes(browserZone) ? list : [browserZone, ...list];
  }, [browserZone]);
  // The payload's own schema; the token is the link's, not typed.
  const schema = z.omit(InvitedRegisterSchema(), { token: true });
  const form = useZodForm(schema, { name: '', surname: '', password: '', timezone: browserZone });
  // An invitee who has an account logs in here: once signed in, this page shows Join (docs/product.md, Workspaces).
  const [loggingIn, setLoggingIn] = useState(false);
  const register = useMutation({
    mutationFn: (values: RegisterValues) => request('auth.registerInvited', { body: { ...values, token } }),
    onSuccess: async ({ user, workspace, message }) => {
      if (!user || !workspace) return;
      switchTo(workspace);
      await queryClient.invalidateQueries({ queryKey: WORKSPACES_QUERY_KEY });
      setUser(user);
      toast.success(message);
      navigate('/dashboard', { replace: true });
    },
  });
  const busy = register.isPending;
  const { errors } = form.formState;
  if (register.data && !register.data.user)
    return (
      <p role="status" className="alert alert--warning">
        {register.data.message}
      </p>
    );
  return (
    <>
      <form
        className="auth-form invite-form"
        noValidate
        aria-busy={busy || undefined}
        onSubmit={(event) => {
          if (busy) return event.preventDefault();
          register.reset();
          void form.handleSubmit((values) => register.mutate(values))(event);
        }}
      >
        <p className="muted">
          New here? Create your account for {invitation.email}. Already have one?{' '}
          <button type="button" className="link-button" aria-haspopup="dialog" onClick={() => setLoggingIn(true)}>
            Log in
          </button>{' '}
          to join.
        </p>
        {register.error && (
          <p role="alert" className="alert alert--error">
            {errorText(register.error, 'The account could not be created. Please try again.')}
          </p>
        )}
        <TextField
          {...form.register('name')}
          id={`${uid}-name`}
          label="Name"
          autoComplete="given-name"
          disabled={busy}
          error={errors.name?.message}
        />
        <TextField
          {...form.register('surname')}
          id={`${uid}-surname`}
          label="Surname"
          autoComplete="family-name"
          disabled={busy}
          error={errors.surname?.message}
        />
        <TextField
          {...form.register('password')}
          id={`${uid}-password`}
          label="Password"
          type="password"
          autoComplete="new-password"
          disabled={busy}
          error={errors.password?.message}
          hint={errors.password ? undefined : `At least ${PASSWORD_MIN_LENGTH} characters`}
        />
        <Field id={`${uid}-timezone`} label="Timezone" error={errors.timezone?.message}>
          {(aria) => (
            <select
              {...aria}
              {...form.register('timezone')}
              id={`${uid}-timezone`}
              className="input select"
              disabled={busy}
            >
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" className="btn btn--primary btn--lg btn--block" disabled={busy}>
          {busy ? 'Please wait…' : 'Create account and join'}
        </button>
      </form>
      {/* Outside the form: the modal has a form of its own. */}
      {loggingIn && (
        <Suspense fallback={null}>
          <AuthModal
            mode="login"
            email={invitation.email}
            // Registering is this page's own form (the address is the invitation's): the modal gives way to it.
            onModeChange={(mode) => mode === 'register' && setLoggingIn(false)}
            onClose={() => setLoggingIn(false)}
          />
        </Suspense>
      )}
    </>
  );
}
