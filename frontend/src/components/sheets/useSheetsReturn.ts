import { useEffect, useEffectEvent, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';

/** `write`: the connection asked for write access, and Google granted it or the person unticked it. */
export type SheetsReturn = { ok: true; write?: 'granted' | 'denied' } | { ok: false; error: string };

/**
 * Google's consent page sends the browser back through /api/sheets/callback to
 * `/sheets-import?sheets_connected=true` (with `&sheets_write=granted|denied` after asking for write
 * access) or `?sheets_error=<code>`. Calls `onReturn` once and
 * removes the query from the address (replacing the history entry).
 */
export function useSheetsReturn(onReturn: (outcome: SheetsReturn) => void): void {
  const [params, setParams] = useSearchParams();
  const error = params.get('sheets_error');
  const connected = params.get('sheets_connected') === 'true';
  const write = params.get('sheets_write');
  const signature = error !== null || connected ? params.toString() : null;
  const handled = useRef<string | null>(null);
  const report = useEffectEvent(() =>
    onReturn(
      error !== null
        ? { ok: false, error: error.trim() || 'unknown_error' }
        : { ok: true, ...(write === 'granted' || write === 'denied' ? { write } : {}) },
    ),
  );

  useEffect(() => {
    if (!signature || handled.current === signature) return;
    handled.current = signature;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('sheets_connected');
        next.delete('sheets_error');
        next.delete('sheets_write');
        return next;
      },
      { replace: true },
    );
    report();
  }, [signature, setParams]);
}
