/**
 * The bench page with each agent the side-by-side parts compare (issue #16): none, Waymark in its worker,
 * Waymark on the main thread (the page's CSP says `worker-src 'none'`, as a strict host's might, so no worker
 * starts and the last install mode runs), and the peers (bench/peerAgents.ts). One place routes the page and
 * waits for its agent, so the parts measure the same five pages.
 */
import type { Page } from 'playwright-core';
import { buildBenchPage } from './benchPage';
import { peerHead, peerReady, PEERS, routePeers, type Peer } from './peerAgents';

export type AgentVariant = 'baseline' | 'worker' | 'main-thread' | Peer;

export const AGENT_VARIANTS: readonly AgentVariant[] = ['baseline', 'worker', 'main-thread', ...PEERS];

/** The peer a variant is, or null for the page without an agent and Waymark's modes. */
export function peerOf(variant: AgentVariant): Peer | null {
  return (PEERS as readonly string[]).includes(variant) ? (variant as Peer) : null;
}

/**
 * Routes `{serverUrl}/bench/{part}-{variant}.html` to the bench page with `variant`'s agent (and the peers'
 * files and endpoints for a peer); answers the page's URL. The visitor is `bench-{part}-{variant}`.
 */
export async function routeAgentPage(page: Page, serverUrl: string, variant: AgentVariant, part: string, apiKey: string): Promise<string> {
  const peer = peerOf(variant);
  const path = `${serverUrl}/bench/${part}-${variant}.html`;
  const visitorId = `bench-${part}-${variant}`;
  const html = buildBenchPage({
    withAgent: variant === 'worker' || variant === 'main-thread',
    peerHead: peer ? peerHead(peer, `${apiKey}-${peer}`, visitorId) : undefined,
    apiKey,
    visitorId,
  });
  if (peer) await routePeers(page, serverUrl);
  // No worker may start on the main-thread page: its worker and blob: modes fail, the last mode runs.
  const headers: Record<string, string> = variant === 'main-thread' ? { 'content-security-policy': "worker-src 'none'" } : {};
  await page.route(`${path}*`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', headers, body: html }));
  return path;
}

interface AgentWindow {
  waymark?: { isReady?(): boolean };
}

/**
 * Waits until the page's agent has started. The page without an agent waits through the same call: Playwright's
 * first `waitForFunction` on a page evaluates its own injected scripts there (10-16 ms of main-thread script on
 * this machine), which must land on every page alike or it counts as the agents' startup.
 */
export async function agentStarted(page: Page, variant: AgentVariant): Promise<void> {
  const peer = peerOf(variant);
  if (peer) await peerReady(page, peer);
  else if (variant === 'baseline') await page.waitForFunction(() => true);
  else await page.waitForFunction(() => (window as unknown as AgentWindow).waymark?.isReady?.() === true);
}

/** What holdCollector answers: holding starts when asked, and one release lets every held request go. */
export interface CollectorHold {
  hold(): void;
  release(): void;
}

/**
 * Routes the collector (`/data`) and the peers' stubbed endpoints (`/peer-api`) of `page` so that, once `hold()` is
 * called, their requests wait until `release()`: the collector's own work on this 2-core machine stays out of the
 * windows a part measures.
 */
export async function holdCollector(page: Page, serverUrl: string): Promise<CollectorHold> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let holding = false;
  await page.route(`${serverUrl}/data/**`, async (route) => {
    if (holding) await held;
    await route.continue();
  });
  // PostHog's endpoints (stubbed by routePeers) wait the same way.
  await page.route(`${serverUrl}/peer-api/**`, async (route) => {
    if (holding) await held;
    await route.fallback();
  });
  return {
    hold: () => void (holding = true),
    release() {
      holding = false;
      release();
    },
  };
}
