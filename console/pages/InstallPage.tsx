/**
 * How to install the agent for one app: the snippet with its key and this server's URL filled in (copied with
 * one click), how to name the visitor, and a check that waits for the app's first event and says where it came
 * from, as products of this kind greet a new install.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, appPath } from '../api';
import { formatAgo } from '../format';
import { installSnippet, quoted } from '../installSnippet';
import type { ConsoleEvent } from '../types';

/** How often the check asks for the first event. */
const CHECK_MS = 3000;

export function InstallPage() {
  const apiKey = useParams().apiKey!;
  const snippet = installSnippet(apiKey, location.origin);
  const identify = `waymark.initialize({\n  apiKey: ${quoted(apiKey)},\n  visitor: { id: user.id, email: user.email },\n  account: { id: user.accountId },\n});`;
  return (
    <>
      <header className="view-head">
        <h1>Install</h1>
      </header>
      <section className="card">
        <h2>1. Paste the snippet into the &lt;head&gt; of every page</h2>
        <CodeBlock code={snippet} label="Install snippet" />
        <p className="muted">
          It loads <code>waymark.js</code> from this server; calls made before it has loaded wait in order. Other ways in (npm, a
          copy of the agent on your own origin, Content-Security-Policy): <code>docs/install.md</code>.
        </p>
      </section>
      <section className="card">
        <h2>2. Say who the visitor is</h2>
        <p>Once your app knows its user, put the ids (and any fields you want to target guides by) in the initialize line, or call <code>waymark.identify(…)</code> after sign-in:</p>
        <CodeBlock code={identify} label="Initialize with the visitor" />
      </section>
      <section className="card">
        <h2>3. Check the install</h2>
        <InstallCheck apiKey={apiKey} />
        <p className="muted">
          On a page of your app, <code>waymark.validateInstall()</code> in the browser&apos;s console lists what to fix.
        </p>
      </section>
    </>
  );
}

function CodeBlock({ code, label }: { code: string; label: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(code).then(
      () => setCopied('yes'),
      () => setCopied('no'),
    );
  return (
    <div className="code-block">
      <pre className="mono" aria-label={label} tabIndex={0}>
        {code}
      </pre>
      <div className="toolbar">
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        {copied && (
          <span role="status" className={copied === 'yes' ? 'ok-note' : 'error'}>
            {copied === 'yes' ? 'Copied.' : 'The browser refused the clipboard: select the text and copy it.'}
          </span>
        )}
      </div>
    </div>
  );
}

/** Waits for the app's first event (asking every 3 s until one is there), then says what and where from. */
function InstallCheck({ apiKey }: { apiKey: string }) {
  const latest = useQuery({
    queryKey: ['install-check', apiKey],
    queryFn: () => api<{ events: ConsoleEvent[] }>(appPath(apiKey, '/events?limit=1')),
    refetchInterval: (query) => (query.state.data?.events.length ? false : CHECK_MS),
  });
  const event = latest.data?.events[0];
  if (latest.error) return <p className="error" role="alert">{latest.error.message}</p>;
  if (!event) {
    return (
      <p role="status" className="waiting">
        Waiting for the first event from <code>{apiKey}</code>… Load a page with the snippet; this updates by itself.
      </p>
    );
  }
  return (
    <p role="status" className="ok-note">
      Installed: <code>{apiKey}</code> sent a <code>{event.type}</code> event {formatAgo(event.receivedAt)}
      {event.url ? (
        <>
          {' '}
          from <code>{event.url}</code>
        </>
      ) : null}
      . <Link to={`/apps/${encodeURIComponent(apiKey)}/events`}>Watch events arrive</Link>
    </p>
  );
}
