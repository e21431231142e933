import { useLocation, useNavigate } from 'react-router-dom';
import type { PublicUser } from '@app/shared';
import { pageNameFor } from '../hooks/useRouteTitle';
import { Icon } from './icons';
import { UserMenu } from './UserMenu';

interface TopBarProps {
  user: PublicUser | null;
  navOpen: boolean;
  navId: string;
  onToggleNav: () => void;
}

/** docs/product.md (Shell): the current page's name, a "+ New Article" button and the user menu. */
export function TopBar({ user, navOpen, navId, onToggleNav }: TopBarProps) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return (
    <header className="topbar">
      <button
        type="button"
        className="icon-button topbar__menu"
        aria-label={navOpen ? 'Close navigation' : 'Open navigation'}
        aria-expanded={navOpen}
        aria-controls={navId}
        onClick={onToggleNav}
      >
        <Icon name={navOpen ? 'close' : 'menu'} size={20} />
      </button>
      <span className="topbar__title" data-testid="topbar-title">
        {pageNameFor(pathname)}
      </span>
      <div className="topbar__actions">
        <button type="button" className="btn btn--primary" onClick={() => navigate('/create')}>
          + New Article
        </button>
        <UserMenu user={user} />
      </div>
    </header>
  );
}
