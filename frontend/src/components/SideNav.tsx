import { NavLink } from 'react-router-dom';
import { Logo } from './Logo';
import { Icon, type IconName } from './icons';
import { useTheme } from '../hooks/useTheme';

interface NavItem {
  to: string;
  label: string;
  icon: IconName;
}

export const NAV_ITEMS: NavItem[] = [
  { to: '/dashboard', label: 'Dashboard', icon: 'dashboard' },
  { to: '/create', label: 'Create', icon: 'create' },
  { to: '/schedule', label: 'Schedule', icon: 'schedule' },
  { to: '/calendar', label: 'Calendar', icon: 'calendar' },
  { to: '/history', label: 'History', icon: 'history' },
  { to: '/settings', label: 'Settings', icon: 'settings' },
];
const ADMIN_ITEM: NavItem = { to: '/admin', label: 'Admin', icon: 'admin' };

interface SideNavProps {
  showAdmin: boolean;
  open: boolean;
  onNavigate: () => void;
  id: string;
}

export function SideNav({ showAdmin, open, onNavigate, id }: SideNavProps) {
  const { theme } = useTheme();
  const items = showAdmin ? [...NAV_ITEMS, ADMIN_ITEM] : NAV_ITEMS;
  return (
    <aside id={id} className={`sidenav${open ? ' is-open' : ''}`}>
      <div className="sidenav__brand">
        <Logo variant={theme} />
      </div>
      <nav aria-label="Main">
        <ul className="sidenav__list">
          {items.map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                className={({ isActive }) => `sidenav__link${isActive ? ' is-active' : ''}`}
                onClick={onNavigate}
              >
                <Icon name={item.icon} />
                <span>{item.label}</span>
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </aside>
  );
}
