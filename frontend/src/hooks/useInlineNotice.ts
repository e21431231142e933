import { useCallback, useEffect, useRef, useState } from 'react';
import { timing } from '../lib/timing';

export type NoticeKind = 'success' | 'error' | 'info';

/** A link shown after the notice's text (e.g. the link to a published post); it opens in a new tab. */
export interface NoticeLink {
  href: string;
  label: string;
}

export interface Notice {
  id: number;
  kind: NoticeKind;
  text: string;
  link?: NoticeLink;
  /** True during the fade-out before the notice is removed. */
  leaving: boolean;
}

/**
 * An inline notification that hides itself after 3 s with a 300 ms fade (docs/product.md, Schedule).
 * A newer notice replaces the current one and restarts the clock. `hold` stops the clock while the
 * pointer or focus is on the notice (so its link can be used) and `release` starts it again.
 */
export function useInlineNotice() {
  const [notice, setNotice] = useState<Notice | null>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const nextId = useRef(1);
  const currentId = useRef(0);

  const clearTimers = () => {
    for (const timer of timers.current) clearTimeout(timer);
    timers.current = [];
  };

  const startClock = useCallback((id: number) => {
    clearTimers();
    timers.current.push(
      setTimeout(() => {
        setNotice((current) => (current?.id === id ? { ...current, leaving: true } : current));
        timers.current.push(
          setTimeout(() => setNotice((current) => (current?.id === id ? null : current)), timing.noticeFadeMs),
        );
      }, timing.noticeMs),
    );
  }, []);

  const dismiss = useCallback(() => {
    clearTimers();
    currentId.current = 0;
    setNotice(null);
  }, []);

  const show = useCallback(
    (kind: NoticeKind, text: string, link?: NoticeLink) => {
      const id = nextId.current++;
      currentId.current = id;
      setNotice({ id, kind, text, link, leaving: false });
      startClock(id);
    },
    [startClock],
  );

  const hold = useCallback(() => {
    if (!currentId.current) return;
    clearTimers();
    setNotice((current) => (current?.leaving ? { ...current, leaving: false } : current));
  }, []);

  const release = useCallback(() => {
    if (currentId.current) startClock(currentId.current);
  }, [startClock]);

  useEffect(() => clearTimers, []);

  return { notice, show, dismiss, hold, release };
}
