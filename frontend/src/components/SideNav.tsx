import { NavLink } from 'react-router-dom';
import { Logo } from './Logo';
import { Icon } from './icons';
import { useTheme } from '../hooks/useTheme';
import { useCan } from '../hooks/useWorkspaces';
import { navEntries } from '../pages/pageTable';

interface SideNavProps {
  showAdmin: boolean;
  open: boolean;
  onNavigate: () => void;
  id: string;
}

export function SideNav({ showAdmin, open, onNavigate, id }: SideNavProps) {
  const { theme } = useTheme();
  // The links and their order come from the page table (pages/pageTable.ts).
  const items = navEntries(showAdmin, useCan());
  return (
    <aside id={id} className={`sidenav${open ? ' is-open' : ''}`}>
      <div className="sidenav__brand">
        <Logo variant={theme} />
      </div>
      <nav aria-label="Main">
        <ul className="sidenav__list">
          {items.map((item) => (
            <li key={item.path}>
              <NavLink
                to={item.path}
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
