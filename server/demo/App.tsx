/**
 * The demo host app "Acme Analytics": top navigation and three pages chosen by location.pathname.
 */
import { useEffect, useState } from 'react';
import { HomePage } from './HomePage';
import { NotFoundPage } from './NotFoundPage';
import { ReportsPage } from './ReportsPage';
import { SettingsPage } from './SettingsPage';
import { TopNav } from './TopNav';
import { usePathname } from './usePathname';

const TITLES: Record<string, string> = { '/': 'Home', '/reports': 'Reports', '/settings': 'Settings' };

/** The whole app. */
export function App() {
  // '/reports/' is '/reports', as a server route would treat it.
  const rawPath = usePathname();
  const pathname = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
  const [helpOpen, setHelpOpen] = useState(false);

  useEffect(() => {
    document.title = `${TITLES[pathname] ?? 'Not found'} · Acme Analytics`;
  }, [pathname]);

  return (
    <>
      <TopNav pathname={pathname} onHelp={() => setHelpOpen((open) => !open)} />
      {helpOpen && (
        <aside className="help" id="help-panel" aria-label="Help">
          <p>Questions? Write to support@acme.test, or follow the guides as they appear.</p>
          <button type="button" id="close-help" className="button button-ghost" onClick={() => setHelpOpen(false)}>
            Close
          </button>
        </aside>
      )}
      <main className="main">
        {pathname === '/' ? (
          <HomePage />
        ) : pathname === '/reports' ? (
          <ReportsPage />
        ) : pathname === '/settings' ? (
          <SettingsPage />
        ) : (
          <NotFoundPage pathname={pathname} />
        )}
      </main>
      <footer className="footer">Acme Analytics demo · a host page for the Waymark agent</footer>
    </>
  );
}
