/**
 * The host app's top navigation bar.
 */
import { Link } from './Link';

const LINKS = [
  { href: '/', label: 'Home' },
  { href: '/reports', label: 'Reports' },
  { href: '/settings', label: 'Settings' },
];

/** Brand, page links (the current one marked with aria-current) and a help button. */
export function TopNav({ pathname, onHelp }: { pathname: string; onHelp: () => void }) {
  return (
    <header className="topnav">
      <Link href="/" className="brand" id="brand-link">
        <span className="brand-mark" aria-hidden="true">A</span>
        Acme Analytics
      </Link>
      <nav aria-label="Main">
        <ul className="nav-links">
          {LINKS.map((link) => (
            <li key={link.href}>
              <Link
                href={link.href}
                id={`nav-${link.label.toLowerCase()}`}
                aria-current={pathname === link.href ? 'page' : undefined}
              >
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <button type="button" id="nav-help" className="button button-ghost" onClick={onHelp}>
        Help
      </button>
    </header>
  );
}
