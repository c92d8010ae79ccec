/**
 * Watches for a guide author (guides §2 Designer and URL triggers, §3 Preview, §6 Author) and only then imports
 * the authoring chunk (waymark.author.js): the designer shortcuts Shift+Alt+7 and Shift+Alt+8, the designer URL
 * parameter, a designer open in this tab before a page load, a preview link, and a preview record saved by an
 * earlier page. Kept small (every visitor with guides loads it): the two refusals that need no chunk are made
 * here (disableDesigner, a child frame); the token and the record are read by the authoring chunk.
 */
import { MESSAGES } from '../../shared/messages';
import { DESIGNER_PARAMETER, DESIGNER_SESSION_PREFIX, shortcutFlow } from '../../shared/authoring/designerLaunch';
import { PREVIEW_PARAMETER, PREVIEW_STORAGE_PREFIX } from '../../shared/authoring/previewRecord';
import type { AuthorHost, AuthorModule, Authoring, LaunchRequest } from '../../overlay/author/api';
import type { LogLevel } from '../../shared/protocol';
import { importChunk } from '../importChunk';
import { readStored } from '../pageStorage';

export interface AuthoringWatchOptions {
  apiKey: string;
  serverUrl: string;
  disableDesigner: boolean;
  disableShortcut: boolean;
  /** This frame is the top or the leader (guides §4: only the leader coordinates preview and designer launch). */
  isTop(): boolean;
  authorUrl: string;
  log(level: LogLevel, message: string): void;
  /** The page's side of the authoring chunk, built when it is first needed. */
  host(): Omit<AuthorHost, 'apiKey' | 'serverUrl' | 'log'>;
}

export interface AuthoringWatch {
  /** A launch asked for by the API or a frame (checked here first). */
  launch(request: LaunchRequest): void;
  stop(): void;
}

export function watchAuthoring(options: AuthoringWatchOptions): AuthoringWatch {
  const { apiKey, log } = options;
  let authoring: Promise<Authoring | null> | null = null;
  let stopped = false;

  function load(): Promise<Authoring | null> {
    return (authoring ??= importChunk<AuthorModule>(options.authorUrl).then(
      (m) => (stopped ? null : m.startAuthoring({ apiKey, serverUrl: options.serverUrl, log, ...options.host() })),
      (err: unknown) => {
        log('error', `the author module did not load (${options.authorUrl}): ${String(err)}`);
        authoring = null;
        return null;
      },
    ));
  }

  function launch(request: LaunchRequest): void {
    if (options.disableDesigner) return log('error', MESSAGES.designerDisabled);
    // guides §5: a child frame launches only when the token allows it.
    const flags = request.rawToken ? decode(request.rawToken) : null;
    if (!options.isTop() && !flags?.allowChildFrame && !flags?.selectionOnly) return log('warn', MESSAGES.designerChildFrame);
    void load().then((a) => a?.launch(request));
  }

  function onKeyDown(event: KeyboardEvent): void {
    const flow = shortcutFlow(event);
    if (!flow) return;
    event.preventDefault();
    launch({ flow, via: 'shortcut' });
  }

  if (!options.disableShortcut) addEventListener('keydown', onKeyDown, true);

  if (options.isTop()) {
    const url = new URL(location.href);
    const link = url.searchParams.get(PREVIEW_PARAMETER);
    const token = url.searchParams.get(DESIGNER_PARAMETER);
    if (link !== null || token !== null) {
      // URL triggers: the parameters leave the address once read (a reload resumes from storage instead).
      url.searchParams.delete(PREVIEW_PARAMETER);
      url.searchParams.delete(DESIGNER_PARAMETER);
      history.replaceState(history.state, '', url.href);
    }
    const stored = link === null ? readStored(() => localStorage, PREVIEW_STORAGE_PREFIX + apiKey) : null;
    if (link !== null || stored !== null) {
      const value = link !== null ? decode(link) : parse(stored!);
      void load().then((a) => a?.preview(value, link !== null));
    }
    const open = readStored(() => sessionStorage, DESIGNER_SESSION_PREFIX + apiKey);
    if (token !== null) launch({ flow: 'launch', via: 'url', rawToken: token });
    else if (open !== null) launch({ flow: 'launch', via: 'resume', rawToken: open || undefined });
  }

  return {
    launch,
    stop() {
      stopped = true;
      removeEventListener('keydown', onKeyDown, true);
      void authoring?.then((a) => a?.stop());
    },
  };
}

/** base64url JSON (a token, a preview link), or null. */
function decode(value: string): Record<string, unknown> | null {
  try {
    const binary = atob(value.replace(/-/g, '+').replace(/_/g, '/'));
    return parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))) as Record<string, unknown> | null;
  } catch {
    return null;
  }
}

function parse(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return null;
  }
}
