/**
 * The authoring chunk's entry (dist/agent/waymark.author.js, issue #15): the designer's launch flows, the
 * designer and the preview. Imported by the guides chunk (shim/guides/watchAuthoring.ts) only when an author
 * shows up. Launch flows (guides §2 Designer): `launch` (Shift+Alt+7, the designer URL parameter, a designer
 * open in this tab before the page load) opens the designer; `modal` (Shift+Alt+8) shows the launch modal
 * unless a token arrives from the opener meanwhile.
 */
import { DESIGNER_SESSION_PREFIX, DESIGNER_SESSION_TTL_MS, encodeDesignerToken, readDesignerToken, type DesignerToken } from '../../shared/authoring/designerLaunch';
import { INSTALL_TYPE, type PreviewRecord } from '../../shared/authoring/previewRecord';
import type { AuthorHost, Authoring } from './api';
import { isSameOrigin, writeDesignerAuth } from './designer/designerAuth';
import { openDesigner, type DesignerSession } from './designer/openDesigner';
import { showLaunchModal, type LaunchModal } from './launch/showLaunchModal';
import { talkToOpener, type OpenerLink } from './launch/talkToOpener';
import { runPreview, type PreviewSession } from './preview/runPreview';

/** base64url of `{}`: a launch without a token of its own (the agent's server, the defaults). */
const NO_TOKEN = 'e30';

export function startAuthoring(host: AuthorHost): Authoring {
  let designer: DesignerSession | null = null;
  let preview: PreviewSession | null = null;
  let modal: LaunchModal | null = null;
  let opener: OpenerLink | null = null;
  /** The page came for a preview (a link or a record), not the designer: an opener's token only signs it in. */
  let openedForPreview = false;
  /** A token the opener sent, waiting for the modal's next poll. */
  let arrived: string | null = null;
  const sessionKey = DESIGNER_SESSION_PREFIX + host.apiKey;

  function tokenOf(raw: string): DesignerToken | null {
    const read = readDesignerToken(raw, { serverUrl: host.serverUrl, crossOriginIsolated: globalThis.crossOriginIsolated === true });
    for (const line of read.logs) host.log('warn', line);
    return read.token;
  }

  /** Reads a token; a designer session in it (from a console on another origin) is kept for the designer and preview. */
  function adopt(raw: string): DesignerToken | null {
    const token = tokenOf(raw);
    if (token?.session && !isSameOrigin(token.baseUrl)) {
      writeDesignerAuth(host.apiKey, { baseUrl: token.baseUrl, token: token.session, expiresAt: Date.now() + DESIGNER_SESSION_TTL_MS });
      designer?.reload();
    }
    return token;
  }

  /** The opener's handshake: its set-token opens the designer, or signs in the one (or the preview) already running. */
  function listenToOpener(): void {
    opener ??= talkToOpener(host.apiKey, host.log, (raw) => {
      if (openedForPreview && !designer) {
        // A preview the console opened on another origin: with the session it can now ask the preview endpoint.
        if (adopt(raw)) preview?.mode('update');
      } else if (modal) arrived = raw;
      else open(raw);
    });
  }

  function open(raw: string): void {
    const token = adopt(raw);
    if (!token) return;
    if (designer) return;
    preview?.stop();
    preview = null;
    remember(sessionKey, raw);
    host.holdGuides(true);
    host.designing(true);
    designer = openDesigner({
      host,
      token,
      preview(guideId) {
        // guides §3: a same-tab preview; its exit comes back to the designer.
        designer?.close();
        designer = null;
        host.designing(false);
        const record: PreviewRecord = {
          apiKey: host.apiKey,
          installType: INSTALL_TYPE,
          guideId,
          serverUrl: token.baseUrl,
          origin: location.origin,
          stepIndex: 0,
          fromDesigner: true,
        };
        forget(sessionKey);
        startPreview(record, true, raw);
      },
      onClose() {
        designer = null;
        forget(sessionKey);
        host.designing(false);
        host.holdGuides(false);
      },
    });
    opener?.connected();
  }

  function startPreview(value: unknown, fromLink: boolean, designerToken?: string): void {
    preview?.stop();
    preview = runPreview(host, value, fromLink, (record) => {
      preview = null;
      // Back to the designer, on the guide that was previewed.
      if (record.fromDesigner) open(withGuide(designerToken, record));
    });
  }

  return {
    launch(request) {
      listenToOpener();
      if (request.flow === 'launch') return open(request.rawToken ?? NO_TOKEN);
      // Shift+Alt+8: the modal, unless a token arrives first (polled by the modal every 50 ms).
      if (designer || modal) return;
      modal = showLaunchModal({
        onLaunch() {
          modal = null;
          open(NO_TOKEN);
        },
        poll() {
          if (arrived === null) return false;
          const raw = arrived;
          arrived = null;
          modal = null;
          open(raw);
          return true;
        },
        onClose: () => (modal = null),
      });
    },
    preview(value, fromLink) {
      openedForPreview = designer === null;
      listenToOpener();
      startPreview(value, fromLink);
    },
    stop() {
      modal?.close();
      designer?.close();
      preview?.stop();
      opener?.stop();
    },
  };
}

function remember(key: string, value: string): void {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    // Without session storage the designer does not reopen after a page load.
  }
}

function forget(key: string): void {
  try {
    sessionStorage.removeItem(key);
  } catch {
    // As above.
  }
}

/** The designer's token, opening `record`'s guide (a token that does not read is replaced by the record's server). */
function withGuide(raw: string | undefined, record: PreviewRecord): string {
  let token: Record<string, unknown> = { baseUrl: record.serverUrl };
  try {
    const json = decodeURIComponent(escape(atob((raw ?? NO_TOKEN).replace(/-/g, '+').replace(/_/g, '/'))));
    const given = JSON.parse(json) as unknown;
    if (given && typeof given === 'object' && !Array.isArray(given)) token = given as Record<string, unknown>;
  } catch {
    // As said: the record's server.
  }
  return encodeDesignerToken({ ...token, guideId: record.guideId });
}
