import { useRef } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError, errorText } from '../../api/client';
import { panelToast } from '../../lib/toast';
import { useOAuthPopup, useOAuthReturn, type OAuthOutcome, type OAuthProvider } from './oauth';

interface OAuthSignInOptions<S> {
  provider: OAuthProvider;
  /** The panel's status query. */
  queryKey: QueryKey;
  refetch: () => Promise<{ data?: S }>;
  /** The popup's window name and size (docs/product.md, Settings). */
  popup: { name: string; features: string };
  /** Whether `next` shows a sign-in that happened after `before`, the status when the popup opened. */
  signedInSince: (before: S | undefined, next: S | undefined) => boolean;
  messages: { connected: string; authUrlFailed: string; authStartFailed: string };
  /** The text for an error code the provider's callback reports. */
  errorText: (code: string) => string;
}

/**
 * The provider sign-in of a settings panel: the outcome comes back by the popup's message, by the
 * address (no popup) or, when the message is lost, by polling the status while the popup is open.
 */
export function useOAuthSignIn<S>(options: OAuthSignInOptions<S>) {
  const { provider, queryKey, refetch, messages } = options;
  const queryClient = useQueryClient();
  /** The status before the popup opened, while a sign-in is awaited. */
  const awaiting = useRef<{ before: S | undefined } | null>(null);

  const succeeded = () => {
    awaiting.current = null;
    panelToast.success(messages.connected, { toastId: `${provider}-connected` });
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
      panelToast.error(options.errorText(outcome.error), { toastId: `${provider}-auth-error` });
    }
  };

  const pollStatus = async () => {
    const next = (await refetch()).data;
    if (awaiting.current && options.signedInSince(awaiting.current.before, next)) succeeded();
  };

  const handingOver = useOAuthReturn(provider, onOutcome);
  const popup = useOAuthPopup(provider, {
    onOutcome,
    onPoll: () => void pollStatus(),
    onClosed: () => void pollStatus().finally(() => (awaiting.current = null)),
  });

  /** Gets the consent page's address from the server and opens it; `status` is the status now. */
  const signIn = async (status: S | undefined, fetchAuthUrl: () => Promise<{ authUrl?: string } | undefined>) => {
    let authUrl: string | undefined;
    try {
      authUrl = (await fetchAuthUrl())?.authUrl;
    } catch (err) {
      // A 400 says why (e.g. "Please save LinkedIn credentials first").
      panelToast.error(err instanceof ApiError && err.status === 400 ? errorText(err, messages.authUrlFailed) : messages.authUrlFailed);
      return;
    }
    try {
      if (!authUrl) {
        panelToast.error(messages.authUrlFailed);
        return;
      }
      awaiting.current = { before: status };
      // A blocked popup: sign in in this window instead; the callback brings the user back here.
      if (!popup.open(authUrl, options.popup.name, options.popup.features)) window.location.assign(authUrl);
    } catch {
      awaiting.current = null;
      panelToast.error(messages.authStartFailed);
    }
  };

  return { handingOver, popupOpen: popup.isOpen, signIn };
}
