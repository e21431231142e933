import { toast, type ToastOptions } from 'react-toastify';
import { TOAST_AUTO_CLOSE_MS, TOAST_SETTINGS_AUTO_CLOSE_MS } from '@app/shared';

export { toast };

/** docs/product.md (Notifications): default toasts are top-right, close after 5000 ms, drag-dismiss at 80 %. */
export const DEFAULT_TOAST_OPTIONS = {
  position: 'top-right',
  autoClose: TOAST_AUTO_CLOSE_MS,
  draggablePercent: 80,
} as const satisfies ToastOptions;

/** Alt+T moves focus to the notifications (react-toastify's `hotKeys`). */
export const isToastHotKey = (event: KeyboardEvent): boolean => event.altKey && event.code === 'KeyT';

/** The settings and import screens show their toasts bottom-right and close them after 3000 ms. */
export const PANEL_TOAST_OPTIONS = {
  position: 'bottom-right',
  autoClose: TOAST_SETTINGS_AUTO_CLOSE_MS,
} as const satisfies ToastOptions;

type Notify = (message: string, options?: ToastOptions) => ReturnType<typeof toast>;
const panel =
  (fn: (message: string, options?: ToastOptions) => ReturnType<typeof toast>): Notify =>
  (message, options) =>
    fn(message, { ...PANEL_TOAST_OPTIONS, ...options });

/** Toasts for the settings and spreadsheet-import screens. */
export const panelToast = {
  success: panel(toast.success),
  error: panel(toast.error),
  info: panel(toast.info),
  warning: panel(toast.warning),
};
