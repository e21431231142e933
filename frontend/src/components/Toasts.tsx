import { ToastContainer } from 'react-toastify';
import { DEFAULT_TOAST_OPTIONS, isToastHotKey } from '../lib/toast';
import { useTheme } from '../hooks/useTheme';

/** The app's single toast container: top-right, 5000 ms, drag at 80 %, Alt+T focuses the toasts. */
export function Toasts() {
  const { theme } = useTheme();
  return (
    <ToastContainer
      {...DEFAULT_TOAST_OPTIONS}
      hotKeys={isToastHotKey}
      aria-label="Notifications Alt+T"
      theme={theme}
      newestOnTop={false}
      pauseOnFocusLoss
      pauseOnHover
    />
  );
}
