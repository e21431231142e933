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

/** The import screen shows its toasts bottom-right and closes them after 3000 ms. */
export const PANEL_TOAST_OPTIONS = {
  position: 'bottom-right',
  autoClose: TOAST_SETTINGS_AUTO_CLOSE_MS,
} as const satisfies ToastOptions;

/**
 * The settings panels' toasts close after 3000 ms, top-right below the top bar: bottom-right they sat
 * on the Save and Test buttons the user had just scrolled to. Only outcomes go there; a panel's
 * failures are shown in the panel itself (CredentialsForm), once.
 */
export const SETTINGS_TOAST_OPTIONS = {
  position: 'top-right',
  autoClose: TOAST_SETTINGS_AUTO_CLOSE_MS,
} as const satisfies ToastOptions;

type Notify = (message: string, options?: ToastOptions) => ReturnType<typeof toast>;
const withOptions = (defaults: ToastOptions) => {
  const wrap =
    (fn: (message: string, options?: ToastOptions) => ReturnType<typeof toast>): Notify =>
    (message, options) =>
      fn(message, { ...defaults, ...options });
  return {
    success: wrap(toast.success),
    error: wrap(toast.error),
    info: wrap(toast.info),
    warning: wrap(toast.warning),
  };
};

/** Toasts for the spreadsheet-import screen. */
export const panelToast = withOptions(PANEL_TOAST_OPTIONS);

/** Toasts for the settings panels. */
export const settingsToast = withOptions(SETTINGS_TOAST_OPTIONS);
