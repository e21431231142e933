import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';

export type SheetsReturn = { ok: true } | { ok: false; error: string };

/**
 * Google's consent page sends the browser back through /api/sheets/callback to
 * `/sheets-import?sheets_connected=true` or `?sheets_error=<code>`. Calls `onReturn` once and
 * removes the query from the address (replacing the history entry).
 */
export function useSheetsReturn(onReturn: (outcome: SheetsReturn) => void): void {
  const [params, setParams] = useSearchParams();
  const error = params.get('sheets_error');
  const connected = params.get('sheets_connected') === 'true';
  const signature = error !== null || connected ? params.toString() : null;
  const handled = useRef<string | null>(null);
  const onReturnRef = useRef(onReturn);
  useEffect(() => {
    onReturnRef.current = onReturn;
  });

  useEffect(() => {
    if (!signature || handled.current === signature) return;
    handled.current = signature;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('sheets_connected');
        next.delete('sheets_error');
        return next;
      },
      { replace: true },
    );
    onReturnRef.current(error !== null ? { ok: false, error: error.trim() || 'unknown_error' } : { ok: true });
    // `error` and `connected` are read from `signature`'s params.
  }, [signature, setParams]);
}
