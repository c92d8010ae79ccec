/**
 * The designer's panel (issue #15): sign-in when the console does not know this browser (as the author, by email
 * and password, or with the owner's admin token: issue #33), who is signed in and with which role, the app's guides, and
 * the guide being edited (GuideEditor) or the resource center (ResourceCenterEditor: its top-level guide and its
 * modules together), and "Tag a feature" (TagFeature: a feature of the element picked, issue #35). The token's
 * guideId opens that guide at once.
 */
import { useEffect, useState } from 'react';
import { checkConsoleOrigin, CONSOLE_ORIGIN_CHECK } from '../../../shared/authoring/consoleOrigin';
import { httpOrigin } from '../../../shared/authoring/designerLaunch';
import type { Guide } from '../../../shared/guides/guides';
import type { AuthorHost } from '../api';
import type { Author, ConsoleApi, GuideState, GuideSummary } from './consoleApi';
import { fromGuide, newGuide, type DesignerGuide } from './designerGuide';
import { GuideEditor } from './GuideEditor';
import type { StepTemplate } from './stepTemplates';
import { fromResourceCenterGuides, isResourceCenter, moduleIdsOf, newResourceCenter, type DesignerResourceCenter } from './designerResourceCenter';
import { ResourceCenterEditor } from './ResourceCenterEditor';
import { TagFeature } from './TagFeature';

type View =
  | { kind: 'loading' }
  | { kind: 'signin'; error?: string }
  | { kind: 'list'; guides: GuideSummary[] }
  | { kind: 'edit'; guide: DesignerGuide; stored?: Guide; state?: GuideState }
  | { kind: 'rc'; rc: DesignerResourceCenter; stored: ReadonlyMap<string, Guide>; state?: GuideState }
  | { kind: 'tag'; selector: string }
  | { kind: 'failed'; error: string };

interface Props {
  host: AuthorHost;
  api: ConsoleApi;
  baseUrl: string;
  guideId?: string;
  fullscreen: boolean;
  onFullscreen(): void;
  onClose(): void;
  onPick(apply: (rule: string) => void): void;
  onPreview(guideId: string): void;
  /** Ready-made steps from the designer's plugins. */
  templates: StepTemplate[];
}

export function DesignerPanel({ host, api, baseUrl, guideId, fullscreen, onFullscreen, onClose, onPick, onPreview, templates }: Props) {
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [author, setAuthor] = useState<Author | null>(null);

  async function openGuide(id: string): Promise<void> {
    try {
      const stored = await api.guide(id);
      if (isResourceCenter(stored.guide)) {
        // A resource center is its top-level guide and its module guides, edited together.
        const modules = (await Promise.all(moduleIdsOf(stored.guide).map((m) => api.guide(m).then((s) => s.guide, () => null)))).filter((g): g is Guide => g !== null);
        const byId = new Map([stored.guide, ...modules].map((g) => [g.id, g]));
        return setView({ kind: 'rc', rc: fromResourceCenterGuides(stored.guide, modules), stored: byId, state: stored.state });
      }
      setView({ kind: 'edit', guide: fromGuide(stored.guide), stored: stored.guide, state: stored.state });
    } catch (err) {
      setView({ kind: 'failed', error: (err as Error).message });
    }
  }
  async function list(): Promise<void> {
    try {
      setView({ kind: 'list', guides: await api.guides() });
    } catch (err) {
      setView({ kind: 'failed', error: (err as Error).message });
    }
  }
  async function start(): Promise<void> {
    try {
      // issue #31: nothing goes to a console the agent's server does not vouch for, the admin token least of all.
      const refused = await checkConsoleOrigin(baseUrl, httpOrigin(host.serverUrl) ?? host.serverUrl, async (origin) => {
        const answer = await fetch(`${new URL(CONSOLE_ORIGIN_CHECK, host.serverUrl).href}?origin=${encodeURIComponent(origin)}`);
        return answer.ok && (await answer.json() as { allowed?: unknown }).allowed === true;
      });
      if (refused) return setView({ kind: 'failed', error: refused });
      const who = await api.signedIn();
      setAuthor(who);
      if (!who) return setView({ kind: 'signin' });
      // The console's login of a viewer (its own origin): the designer would only meet 403s, so it asks for another.
      if (who.role === 'viewer') return setView({ kind: 'signin', error: `${nameOf(who)} is signed in to the console as a viewer: the designer needs the editor role. Sign in as an editor or admin.` });
      await (guideId ? openGuide(guideId) : list());
    } catch (err) {
      setView({ kind: 'failed', error: (err as Error).message });
    }
  }
  useEffect(() => void start(), []);

  const signOut = () => void api.signOut().then(() => start());
  const whoLine = author && author.role !== 'viewer' && (
    <p className="muted who" data-testid="designer-author" style={{ margin: 0 }}>
      Signed in as {nameOf(author)} · {author.role}
      {author.via === 'designer' && (
        <>
          {' '}
          <button type="button" className="link" onClick={signOut}>
            Sign out
          </button>
        </>
      )}
    </p>
  );
  const chrome = (
    <div className="row" style={{ flex: 'none' }}>
      <button type="button" className="icon" aria-pressed={fullscreen} aria-label={fullscreen ? 'Leave full screen' : 'Full screen'} onClick={onFullscreen}>
        {fullscreen ? '⤡' : '⤢'}
      </button>
      <button type="button" className="icon" aria-label="Close the designer" onClick={onClose}>
        ✕
      </button>
    </div>
  );

  if (view.kind === 'tag') {
    return (
      <>
        <header>
          <h1>Tag this feature</h1>
          {chrome}
        </header>
        <TagFeature host={host} api={api} baseUrl={baseUrl} selector={view.selector} onPick={onPick} onBack={() => void list()} />
      </>
    );
  }
  if (view.kind === 'rc' || view.kind === 'edit') {
    return (
      <>
        <div className="row" style={{ padding: '8px 14px 0', justifyContent: 'flex-end' }}>
          <span className="muted" style={{ flex: 1 }}>
            Waymark designer
          </span>
          {chrome}
        </div>
        <div style={{ padding: '4px 14px 0' }}>{whoLine}</div>
        {view.kind === 'rc' ? (
          <ResourceCenterEditor host={host} api={api} initial={view.rc} stored={view.stored} state={view.state} onBack={() => void list()} />
        ) : (
          <GuideEditor host={host} api={api} initial={view.guide} stored={view.stored} state={view.state} onPick={onPick} onPreview={onPreview} templates={templates} onBack={() => void list()} />
        )}
      </>
    );
  }
  return (
    <>
      <header>
        <h1>Waymark designer</h1>
        {chrome}
      </header>
      <div className="content">
        {view.kind === 'loading' && <p className="muted">Connecting to the console at {baseUrl}…</p>}
        {view.kind === 'failed' && (
          <p className="notice error" role="alert">
            {view.error}
          </p>
        )}
        {view.kind === 'signin' && <SignIn api={api} baseUrl={baseUrl} error={view.error} onDone={() => void start()} onError={(error) => setView({ kind: 'signin', error })} />}
        {view.kind === 'list' && (
          <>
            {whoLine}
            <div className="row">
              <button type="button" className="primary" onClick={() => setView({ kind: 'edit', guide: newGuide(location.href) })}>
                New guide on this page
              </button>
              <button type="button" onClick={() => setView({ kind: 'rc', rc: newResourceCenter(location.href), stored: new Map() })}>
                New resource center
              </button>
            </div>
            <button type="button" onClick={() => onPick((selector) => setView({ kind: 'tag', selector }))}>
              Tag a feature…
            </button>
            {view.guides.length === 0 ? (
              <p className="muted">No guides yet for {host.apiKey}.</p>
            ) : (
              <ul className="guides" aria-label="Guides">
                {/* A resource center's modules are edited with it, not on their own. */}
                {view.guides.filter((g) => g.kind !== 'module').map((g) => (
                  <li key={g.id}>
                    <button type="button" onClick={() => void openGuide(g.id)}>
                      <span>
                        {g.name}
                        {g.kind === 'resourceCenter' ? <span className="muted"> · resource center</span> : null}
                      </span>
                      <span className={`badge ${g.state}`}>{g.state}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </>
  );
}

/** How the signed-in author is named: their name and email, or the admin token. */
function nameOf(author: Author): string {
  if (!author.user) return 'the admin token';
  return author.user.name ? `${author.user.name} (${author.user.email})` : author.user.email;
}

/**
 * The sign-in form: the author's email and password; the admin token stays the owner's second way in. The
 * password lives in this form's state only while it is on screen; the server's refusal is shown as it says it.
 */
function SignIn({ api, baseUrl, error, onDone, onError }: { api: ConsoleApi; baseUrl: string; error?: string; onDone(): void; onError(error: string): void }) {
  const [withToken, setWithToken] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const ready = withToken ? token !== '' : email !== '' && password !== '';
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        api.signIn(withToken ? { token } : { email: email.trim(), password }).then(onDone, (err: Error) => {
          setBusy(false);
          onError(err.message);
        });
      }}
      style={{ display: 'flex', flexDirection: 'column', gap: 10 }}
    >
      <p>Sign in to the console at {baseUrl} to edit this app's guides.</p>
      {api.crossOrigin && <p className="muted">The console is on another origin: this tab keeps a session for this app's guides (12 hours), never the password or token.</p>}
      {withToken ? (
        <label>
          Admin token
          <input type="password" autoComplete="current-password" value={token} onChange={(e) => setToken(e.target.value)} aria-invalid={error ? true : undefined} />
        </label>
      ) : (
        <>
          <label>
            Email
            <input type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} aria-invalid={error ? true : undefined} />
          </label>
          <label>
            Password
            <input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} aria-invalid={error ? true : undefined} />
          </label>
        </>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="primary" disabled={!ready || busy}>
        Sign in
      </button>
      <button type="button" className="link" onClick={() => setWithToken((t) => !t)}>
        {withToken ? 'Use an email and password instead' : 'Use the admin token instead'}
      </button>
    </form>
  );
}
