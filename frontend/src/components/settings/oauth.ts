import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { RouteId } from '@app/shared/api';
import { routeUrl } from '../../api/client';
import { timing } from '../../lib/timing';

/**
 * The OAuth round trips of the settings panels (a channel's, Gmail). The panel opens the provider in a
 * popup; the provider redirects the popup to our callback, which redirects it to
 * `/settings?<provider>_connected=true` (or `?<provider>_error=<code>`; `gmail_…` for Google).
 *
 * - In the popup (a same-origin opener exists) that page posts `{type: '<provider>-connected'}` or
 *   `{type: '<provider>-error', error}` to the opener and closes itself.
 * - Opened directly (no popup, or the opener was lost), the page handles the outcome itself and
 *   removes the query from the address.
 * - The opener listens for the message, and while the popup is open it also polls the status, so
 *   a lost message still ends in the right state.
 */
/** The provider's name in the callback's query and the popup's message: `gmail`, or the channel's id. */
export type OAuthProvider = string;

/** The addresses the providers redirect to (the callback routes); they must be registered with the provider exactly. */
export const redirectUri = (callback: Extract<RouteId, `${string}.callback`>) =>
  `${window.location.origin}${routeUrl(callback)}`;
export const gmailRedirectUri = () => redirectUri('email.callback');

export type OAuthOutcome = { ok: true } | { ok: false; error: string };

export type OAuthMessage = { type: `${OAuthProvider}-connected` } | { type: `${OAuthProvider}-error`; error: string };

/** The callback's query parameters on /settings. */
const queryKeysOf = (provider: OAuthProvider) => ({ connected: `${provider}_connected`, error: `${provider}_error` });

export function outcomeFromQuery(params: URLSearchParams, provider: OAuthProvider): OAuthOutcome | null {
  const keys = queryKeysOf(provider);
  const error = params.get(keys.error);
  if (error !== null) return { ok: false, error: error.trim() || 'unknown_error' };
  if (params.get(keys.connected) === 'true') return { ok: true };
  return null;
}

export function toMessage(provider: OAuthProvider, outcome: OAuthOutcome): OAuthMessage {
  return outcome.ok ? { type: `${provider}-connected` } : { type: `${provider}-error`, error: outcome.error };
}

export function outcomeFromMessage(data: unknown, provider: OAuthProvider): OAuthOutcome | null {
  if (!data || typeof data !== 'object') return null;
  const { type, error } = data as { type?: unknown; error?: unknown };
  if (type === `${provider}-connected`) return { ok: true };
  if (type === `${provider}-error`)
    return { ok: false, error: typeof error === 'string' && error ? error : 'unknown_error' };
  return null;
}

/** The window that opened this one, when it is one of our own pages; null otherwise. */
export function sameOriginOpener(): Window | null {
  try {
    const opener = window.opener as Window | null;
    if (!opener || opener === window || opener.closed) return null;
    return opener.location.origin === window.location.origin ? opener : null;
  } catch {
    // A cross-origin opener throws on .location: it is not ours.
    return null;
  }
}

/**
 * Handles `?{provider}_connected=true` / `?{provider}_error=…` on /settings. In the popup it hands the
 * outcome to the opener and closes; otherwise it removes the query (replacing the history entry) and
 * calls `onOutcome`. Returns true while this window is a popup handing over.
 */
export function useOAuthReturn(provider: OAuthProvider, onOutcome: (outcome: OAuthOutcome) => void): boolean {
  const [searchParams, setSearchParams] = useSearchParams();
  const outcome = outcomeFromQuery(searchParams, provider);
  const signature = outcome ? `${provider}:${searchParams.toString()}` : null;
  const handled = useRef<string | null>(null);
  // A popup that came back with an outcome hands it to the window that opened it, then closes.
  const [opener] = useState(sameOriginOpener);
  const handingOver = outcome !== null && opener !== null;

  const handle = useEffectEvent(() => {
    if (!outcome) return;
    if (opener) {
      opener.postMessage(toMessage(provider, outcome), window.location.origin);
      window.close();
      return;
    }
    const keys = queryKeysOf(provider);
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(keys.connected);
        next.delete(keys.error);
        return next;
      },
      { replace: true },
    );
    onOutcome(outcome);
  });
  // Once per outcome in the address (`signature` changes with it).
  useEffect(() => {
    if (!signature || handled.current === signature) return;
    handled.current = signature;
    handle();
  }, [signature]);

  return handingOver;
}

interface PopupOptions {
  /** The popup (or the address) reported an outcome. */
  onOutcome: (outcome: OAuthOutcome) => void;
  /** Called every poll interval while the popup is open: refresh the status. */
  onPoll: () => void;
  /** The popup closed (with or without a message). */
  onClosed?: () => void;
}

/**
 * Opens the provider's consent page in a named popup and follows it: listens for the popup's
 * message, polls the status while it is open and stops when it closes.
 */
export function useOAuthPopup(provider: OAuthProvider, options: PopupOptions) {
  const popupRef = useRef<Window | null>(null);
  const [isOpen, setOpen] = useState(false);
  const onOutcome = useEffectEvent((outcome: OAuthOutcome) => options.onOutcome(outcome));
  const onPoll = useEffectEvent(() => options.onPoll());
  const onClosed = useEffectEvent(() => options.onClosed?.());

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      const outcome = outcomeFromMessage(event.data, provider);
      if (!outcome) return;
      onOutcome(outcome);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [provider]);

  useEffect(() => {
    if (!isOpen) return;
    const timer = window.setInterval(() => {
      const popup = popupRef.current;
      if (!popup || popup.closed) {
        window.clearInterval(timer);
        popupRef.current = null;
        setOpen(false);
        onClosed();
        return;
      }
      onPoll();
    }, timing.oauthPopupPollMs);
    return () => window.clearInterval(timer);
  }, [isOpen]);

  /** Opens the popup; false when the browser blocked it. */
  const open = useCallback((url: string, name: string, features: string): boolean => {
    const popup = window.open(url, name, features);
    if (!popup) return false;
    popupRef.current = popup;
    setOpen(true);
    try {
      popup.focus();
    } catch {
      // Some browsers refuse focus() on a popup; it is in front already.
    }
    return true;
  }, []);

  return { open, isOpen };
}
