import { useCallback, useEffect, useRef, useState } from 'react';
import { timing } from '../lib/timing';

export type NoticeKind = 'success' | 'error' | 'info';

export interface Notice {
  id: number;
  kind: NoticeKind;
  text: string;
  /** True during the fade-out before the notice is removed. */
  leaving: boolean;
}

/**
 * An inline notification that hides itself after 3 s with a 300 ms fade (SPEC.md §4, §9).
 * A newer notice replaces the current one and restarts the clock.
 */
export function useInlineNotice() {
  const [notice, setNotice] = useState<Notice | null>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const nextId = useRef(1);

  const clearTimers = () => {
    for (const timer of timers.current) clearTimeout(timer);
    timers.current = [];
  };

  const dismiss = useCallback(() => {
    clearTimers();
    setNotice(null);
  }, []);

  const show = useCallback((kind: NoticeKind, text: string) => {
    clearTimers();
    const id = nextId.current++;
    setNotice({ id, kind, text, leaving: false });
    timers.current.push(
      setTimeout(() => {
        setNotice((current) => (current?.id === id ? { ...current, leaving: true } : current));
        timers.current.push(
          setTimeout(() => setNotice((current) => (current?.id === id ? null : current)), timing.noticeFadeMs),
        );
      }, timing.noticeMs),
    );
  }, []);

  useEffect(() => clearTimers, []);

  return { notice, show, dismiss };
}
