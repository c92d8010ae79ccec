/** A console path that names no view. */
import { Link } from 'react-router';

/** The page. */
export function NotFoundPage() {
  return (
    <div className="empty">
      <h1>Nothing here</h1>
      <p>
        This console page does not exist. <Link to="/">Back to the apps</Link>.
      </p>
    </div>
  );
}
