/**
 * Any other path: the server answers index.html for it (SPA fallback), so the app shows its own 404.
 */
import { navigate } from './navigate';

/** The in-app "not found" page. */
export function NotFoundPage({ pathname }: { pathname: string }) {
  return (
    <section className="page">
      <h1>Page not found</h1>
      <p>
        There is no page at <code>{pathname}</code>.
      </p>
      <button type="button" id="go-home" className="button button-primary" onClick={() => navigate('/')}>
        Back to Home
      </button>
    </section>
  );
}
