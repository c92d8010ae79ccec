/**
 * The authoring chunk's entry (dist/agent/waymark.author.js, issue #15): the designer's launch, the designer and
 * the preview. Imported by the guides chunk (shim/guides/watchAuthoring.ts) only when an author shows up.
 */
import { DESIGNER_SESSION_PREFIX, readDesignerToken, type DesignerToken } from '../../shared/authoring/designerLaunch';
import type { AuthorHost, Authoring } from './api';
import { openDesigner, type DesignerSession } from './designer/openDesigner';

export function startAuthoring(host: AuthorHost): Authoring {
  let designer: DesignerSession | null = null;
  const sessionKey = DESIGNER_SESSION_PREFIX + host.apiKey;

  function tokenOf(raw: string | undefined): DesignerToken | null {
    const read = readDesignerToken(raw ?? 'e30', { serverUrl: host.serverUrl, crossOriginIsolated: globalThis.crossOriginIsolated === true });
    for (const line of read.logs) host.log('warn', line);
    return read.token;
  }

  function open(raw: string | undefined): void {
    if (designer) return;
    const token = tokenOf(raw);
    if (!token) return;
    try {
      sessionStorage.setItem(sessionKey, raw ?? '');
    } catch {
      // Without session storage the designer does not reopen after a page load.
    }
    host.holdGuides(true);
    designer = openDesigner({
      host,
      token,
      preview: (guideId) => host.log('info', `preview ${guideId} is not built yet`),
      onClose() {
        designer = null;
        try {
          sessionStorage.removeItem(sessionKey);
        } catch {
          // As above.
        }
        host.holdGuides(false);
      },
    });
  }

  return {
    launch(request) {
      open(request.rawToken);
    },
    preview(value) {
      host.log('info', `preview ${JSON.stringify(value)}`);
    },
    stop() {
      designer?.close();
    },
  };
}
