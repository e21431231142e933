import { useEffect, useEffectEvent, useRef, type RefObject } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface DialogOptions {
  onClose: () => void;
  /** The element to focus when the dialog opens; its first control otherwise (the dialog itself if it has none). */
  initialFocus?: () => HTMLElement | null | undefined;
}

function focusableIn(node: HTMLElement): HTMLElement[] {
  return Array.from(node.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => !el.closest('[hidden]') && el.tabIndex >= 0,
  );
}

/**
 * Modal behaviour for a `role="dialog"` element: focus moves in on open and back to the opener on
 * close, Tab stays inside, Escape closes, the page behind does not scroll.
 */
export function useDialog(ref: RefObject<HTMLElement | null>, { onClose, initialFocus }: DialogOptions): void {
  const close = useEffectEvent(onClose);
  const initialFocusRef = useRef(initialFocus);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = ref.current;
    const target = initialFocusRef.current?.() ?? (dialog && (focusableIn(dialog)[0] ?? dialog));
    if (dialog && target === dialog && !dialog.hasAttribute('tabindex')) dialog.tabIndex = -1;
    target?.focus();

    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';

    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      const node = ref.current;
      if (!node) return;
      if (event.key === 'Escape') {
        event.stopPropagation();
        close();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusableIn(node);
      if (items.length === 0) {
        event.preventDefault();
        return;
      }
      const first = items[0]!;
      const last = items[items.length - 1]!;
      const active = document.activeElement;
      if (event.shiftKey && (active === first || !node.contains(active))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !node.contains(active))) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.body.style.overflow = overflow;
      if (opener && opener.isConnected) opener.focus();
    };
  }, [ref]);
}
