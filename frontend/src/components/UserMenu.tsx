import { lazy, Suspense, useEffect, useId, useRef, useState, type ReactNode, type Ref } from 'react';
import { createPortal } from 'react-dom';
import { useNavigate } from 'react-router-dom';
import type { PublicUser } from '@app/shared';
import { useLogout } from '../hooks/useSession';
import { toast } from '../lib/toast';
import { CodeLoadBoundary } from './CodeLoadBoundary';
import { Icon, type IconName } from './icons';

// Fetched when opened: with its form code (zod, the auth schemas, the modal) it was ~28 kB gzipped and seven requests
// that every signed-in page loaded before its first paint (docs/testing.md, Performance budgets).
const ChangePasswordModal = lazy(() =>
  import('./ChangePasswordModal').then((m) => ({ default: m.ChangePasswordModal })),
);

export function displayName(user: Pick<PublicUser, 'name'> | null | undefined): string {
  return user?.name?.trim() || 'User';
}

function initials(user: PublicUser | null): string {
  const letters = [user?.name, user?.surname].map((part) => part?.trim()?.[0] ?? '').join('');
  return (letters || 'U').toUpperCase();
}

/**
 * The top bar's user menu: the user's name (fallback "User"), Workspaces (docs/product.md, Workspaces),
 * Change password, Log out everywhere and Logout.
 */
export function UserMenu({ user }: { user: PublicUser | null }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  const { logout, logoutEverywhere, isLoggingOut } = useLogout();
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemRef = useRef<HTMLButtonElement>(null);
  const name = displayName(user);
  // The change-password form closed (or never loaded): focus goes back to the menu's button.
  const closePasswordForm = () => {
    setChangingPassword(false);
    buttonRef.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    itemRef.current?.focus();
    const onPointer = (event: PointerEvent | MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="user-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="user-menu__button"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="avatar" aria-hidden="true">
          {initials(user)}
        </span>
        <span className="user-menu__name">{name}</span>
        <Icon name="chevronDown" size={16} />
      </button>
      {open && (
        <div className="user-menu__popover" id={menuId}>
          <div className="user-menu__header">
            <span className="user-menu__full-name">
              {[user?.name, user?.surname].filter(Boolean).join(' ') || name}
            </span>
            {user?.email && <span className="user-menu__email">{user.email}</span>}
          </div>
          <MenuItem
            ref={itemRef}
            icon="admin"
            disabled={isLoggingOut}
            onClick={() => {
              setOpen(false);
              navigate('/workspaces');
            }}
          >
            Workspaces
          </MenuItem>
          <MenuItem
            icon="lock"
            disabled={isLoggingOut}
            onClick={() => {
              setOpen(false);
              setChangingPassword(true);
            }}
          >
            Change password
          </MenuItem>
          <MenuItem icon="logout" disabled={isLoggingOut} onClick={() => void logoutEverywhere()}>
            Log out everywhere
          </MenuItem>
          <MenuItem icon="logout" disabled={isLoggingOut} onClick={() => void logout()}>
            {isLoggingOut ? 'Logging out...' : 'Logout'}
          </MenuItem>
        </div>
      )}
      {/* In a portal: the top bar is a containing block for fixed elements (its backdrop blur), which would clip the dialog. */}
      {changingPassword &&
        createPortal(
          <CodeLoadBoundary
            what="The change-password form"
            onError={(message) => {
              closePasswordForm();
              toast.error(message, { toastId: 'change-password-load' });
            }}
          >
            <Suspense fallback={null}>
              <ChangePasswordModal onClose={closePasswordForm} />
            </Suspense>
          </CodeLoadBoundary>,
          document.body,
        )}
    </div>
  );
}

interface MenuItemProps {
  icon: IconName;
  disabled: boolean;
  onClick: () => void;
  children: ReactNode;
  ref?: Ref<HTMLButtonElement>;
}

function MenuItem({ icon, disabled, onClick, children, ref }: MenuItemProps) {
  return (
    <button ref={ref} type="button" className="user-menu__item" disabled={disabled} onClick={onClick}>
      <Icon name={icon} size={16} />
      {children}
    </button>
  );
}
