/**
 * Issue #16: the peers Waymark is measured against, on the same bench page, in the same run: the spec's
 * original agent (Pendo's, from the @pendo/agent package) and posthog-js. Both are devDependencies, served from
 * node_modules through Playwright routes; nothing leaves the machine. Pendo's agent speaks the wire format the
 * reference collector takes (it is the one wire-protocol.md was observed from), so it sends its events and asks
 * guide.json there, as Waymark does. PostHog's endpoints (config, flags, events) get a stub answer from the
 * bench: what its own server would do with them is not part of what it costs the page.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from './benchConfig';

export type Peer = 'pendo' | 'posthog';

export const PEERS: readonly Peer[] = ['pendo', 'posthog'];

/** What goes into the bench page's head for `peer`: its install as its documentation gives it. */
export function peerHead(peer: Peer, apiKey: string, visitorId: string): string {
  if (peer === 'pendo') {
    // @pendo/agent's own initialize() fetches its config from Pendo's CDN; the same config, given here with the
    // reference server as its data host, is what that function would hand to loadAgent.
    const config = { env: 'io', server: '', designerServer: '', assetHost: '', assetPath: 'peer/pendo', loadAsModule: true, pendoGlobalKey: 'pendo' };
    return `<script type="module">
import { loadAgent } from '/peer/pendo/pendo.module.min.js';
const pendo = loadAgent(Object.assign(${JSON.stringify(config)}, { server: location.origin, designerServer: location.origin, assetHost: location.host }));
window.pendo = pendo;
pendo.disableLogging && pendo.disableLogging();
pendo.initialize({ apiKey: ${JSON.stringify(apiKey)}, visitor: { id: ${JSON.stringify(visitorId)} }, account: { id: 'bench-account' } });
</script>`;
  }
  // posthog-js's snippet loads dist/array.js; autocapture is its default. Its bot filter would drop a headless
  // browser's events, which would make it look cheaper than it is.
  return `<script src="/peer/posthog/array.js"></script>
<script>posthog.init(${JSON.stringify(apiKey)}, { api_host: location.origin + '/peer-api/posthog', autocapture: true, capture_pageview: true, disable_session_recording: true, opt_out_useragent_filter: true });</script>`;
}

/** The config and flags answer of a project with autocapture on and everything else off. */
export const POSTHOG_CONFIG = {
  autocapture_opt_out: false,
  sessionRecording: false,
  featureFlags: {},
  featureFlagPayloads: {},
  supportedCompression: ['gzip', 'gzip-js'],
  heatmaps: false,
  capturePerformance: false,
  autocaptureExceptions: false,
};

/**
 * Serves the peers' files from node_modules and answers PostHog's endpoints, on `serverUrl`'s origin, with
 * `posthogConfig` as its config and flags (bench/recording.ts turns its session recording on). PostHog's lazily
 * loaded files (`/static/{version}/lazy-recorder.js`) come from its dist too.
 */
export async function routePeers(page: Page, serverUrl: string, posthogConfig: object = POSTHOG_CONFIG): Promise<void> {
  await page.route(`${serverUrl}/peer/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    const [, , peer, ...rest] = path.split('/');
    const dir = peer === 'pendo' ? 'node_modules/@pendo/agent/dist' : 'node_modules/posthog-js/dist';
    try {
      return route.fulfill({ status: 200, contentType: 'text/javascript', body: readFileSync(join(repoRoot, dir, ...rest)) });
    } catch {
      return route.fulfill({ status: 404, body: '' });
    }
  });
  await page.route(`${serverUrl}/peer-api/**`, (route) => {
    const url = route.request().url();
    const file = /\/static\/(?:[\d.]+\/)?([\w.-]+\.js)$/.exec(new URL(url).pathname)?.[1];
    if (file) {
      try {
        return route.fulfill({ status: 200, contentType: 'text/javascript', body: readFileSync(join(repoRoot, 'node_modules/posthog-js/dist', file)) });
      } catch {
        return route.fulfill({ status: 404, body: '' });
      }
    }
    // No remote config script; the config and flags answers a project with autocapture on would get (an empty
    // answer leaves autocapture off, and the peer would look cheaper than it is).
    if (url.includes('config.js')) return route.fulfill({ status: 404, body: '' });
    const body = url.includes('/e/') || url.includes('/s/') ? { status: 1 } : posthogConfig;
    return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
  });
}

/** Waits until `peer` has started on `page`. */
export async function peerReady(page: Page, peer: Peer): Promise<void> {
  if (peer === 'pendo') await page.waitForFunction(() => (window as unknown as { pendo?: { isReady?(): boolean } }).pendo?.isReady?.() === true);
  else await page.waitForFunction(() => (window as unknown as { posthog?: { __loaded?: boolean } }).posthog?.__loaded === true);
}
