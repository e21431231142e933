import { useRef } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AuthUrlAnswer } from '@app/shared/api';
import { ApiError, errorText } from '../../api/client';
import { settingsToast } from '../../lib/toast';
import { PanelMessages, gmailErrorText } from './messages';
import { useOAuthPopup, useOAuthReturn, type OAuthOutcome, type OAuthProvider } from './oauth';
import { EMAIL_QUERY_KEY } from './types';

/** What differs between the providers' sign-ins: the panel's status query, the popup (docs/product.md, Settings) and the texts. */
export interface OAuthSignInConfig {
  provider: OAuthProvider;
  queryKey: readonly unknown[];
  popup: { name: string; features: string };
  messages: { connected: string; authStartFailed: string; authUrlFailed: string };
  errorText: (code: string) => string;
}

/** Gmail's sign-in (the Email panel); a channel's is in its folder. */
export const GMAIL_SIGN_IN: OAuthSignInConfig = {
  provider: 'gmail',
  queryKey: EMAIL_QUERY_KEY,
  popup: { name: 'gmail-auth', features: 'width=500,height=600' },
  messages: PanelMessages.email,
  errorText: gmailErrorText,
};

/**
 * The provider sign-in of a settings panel: the outcome comes back by the popup's message, by the
 * address (no popup) or, when the message is lost, by polling the status while the popup is open.
 * `signedInSince` says whether the status `next` shows a sign-in after `before`, the status when the popup opened.
 */
export function useOAuthSignIn<S>(
  sign: OAuthSignInConfig,
  refetch: () => Promise<{ data?: S }>,
  signedInSince: (before: S | undefined, next: S | undefined) => boolean,
) {
  const { provider, queryKey, messages } = sign;
  const queryClient = useQueryClient();
  /** The status before the popup opened, while a sign-in is awaited. */
  const awaiting = useRef<{ before: S | undefined } | null>(null);

  const succeeded = () => {
    awaiting.current = null;
    settingsToast.success(messages.connected, { toastId: `${provider}-connected` });
  };

  /** A fresh read of the status: a read started before the sign-in finished may be stale. */
  const refresh = async () => {
    await queryClient.cancelQueries({ queryKey });
    return refetch();
  };

  const onOutcome = (outcome: OAuthOutcome) => {
    void refresh();
    if (outcome.ok) succeeded();
    else {
      awaiting.current = null;
      settingsToast.error(sign.errorText(outcome.error), { toastId: `${provider}-auth-error` });
    }
  };

  const pollStatus = async () => {
    const next = (await refetch()).data;
    if (awaiting.current && signedInSince(awaiting.current.before, next)) succeeded();
  };

  const handingOver = useOAuthReturn(provider, onOutcome);
  const popup = useOAuthPopup(provider, {
    onOutcome,
    onPoll: () => void pollStatus(),
    onClosed: () => void pollStatus().finally(() => (awaiting.current = null)),
  });

  /** Gets the consent page's address from the server and opens it; `status` is the status when asked. */
  const start = useMutation({
    mutationFn: ({ fetchAuthUrl }: { status: S | undefined; fetchAuthUrl: () => Promise<AuthUrlAnswer> }) =>
      fetchAuthUrl(),
    onSuccess: ({ authUrl }, { status }) => {
      try {
        awaiting.current = { before: status };
        // A blocked popup: sign in in this window instead; the callback brings the user back here.
        if (!popup.open(authUrl, sign.popup.name, sign.popup.features)) window.location.assign(authUrl);
      } catch {
        awaiting.current = null;
        settingsToast.error(messages.authStartFailed);
      }
    },
    // A 400 says why (e.g. that the credentials must be saved first).
    onError: (err) =>
      settingsToast.error(
        err instanceof ApiError && err.status === 400 ? errorText(err, messages.authUrlFailed) : messages.authUrlFailed,
      ),
  });

  return {
    handingOver,
    popupOpen: popup.isOpen,
    /** The server is asked for the consent page's address. */
    starting: start.isPending,
    signIn: (status: S | undefined, fetchAuthUrl: () => Promise<AuthUrlAnswer>) =>
      start.mutate({ status, fetchAuthUrl }),
  };
}
