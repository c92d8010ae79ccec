/**
 * The server the fuzz properties drive (issue #31): test/server/testServer's in-memory server, with guides in
 * its folder that make guide.json do its work per visitor (an audience, a target account, markdown steps), and a
 * heap watch from the moment it is up.
 */
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { startTestServer, type TestServer } from '../server/testServer';
import { checkAnswer, mb, shown, watchHeap } from './checkAnswer';
import { LONG_RUN } from './fuzzRun';

const step = (id: string, fields: Record<string, unknown> = {}) => ({
  id,
  type: 'lightbox',
  domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'h2', props: {}, content: 'Hello' }] },
  ...fields,
});

/** Guides of the folder: each makes guide.json read part of the visitor's payload. */
export const FOLDER_GUIDES = {
  'audience.json': { id: 'audience', launchMethod: 'auto', audience: { when: { 'visitor.role': { in: ['admin', 'owner'] }, 'account.plan': 'pro', accountId: { startsWith: 'acme' } } }, steps: [step('audience-1')] },
  'account.json': { id: 'account', launchMethod: 'auto', targetAccount: ['acme', 42], steps: [step('account-1')] },
  'markdown.json': {
    id: 'markdown',
    launchMethod: 'auto',
    steps: [
      { id: 'md-1', type: 'lightbox', markdown: '# Hi {{visitor.firstName | there}}\n\nYour plan: **{{account.plan | free}}**\n\n[[Next]]' },
      { id: 'md-2', type: 'lightbox', markdown: '<!-- skip if visitor.role is "admin" -->\nAdmins never see this.\n\n[[Back]] [[Next]]' },
    ],
  },
};

/** A started server, how to send it one request, and its end. */
export interface ServerUnderFuzz {
  app: FastifyInstance;
  /** Sends `request`, checks the answer (checkAnswer) and the heap; answers the response. */
  send(request: InjectOptions, what?: string): Promise<Awaited<ReturnType<FastifyInstance['inject']>>>;
  /** Checks what the run kept, prints the heap figures on a long run, and closes the server. */
  close(name: string): Promise<void>;
}

export async function startServerUnderFuzz(): Promise<ServerUnderFuzz> {
  // The built agent, demo and console (dist/, as `npm test` builds it first): the static routes serve real files.
  const dist = (name: string) => fileURLToPath(new URL(`../../dist/${name}`, import.meta.url));
  const server: TestServer = await startTestServer(FOLDER_GUIDES, { agentDir: dist('agent'), demoDir: dist('demo'), consoleDir: dist('console') });
  const heap = watchHeap();
  /** Answers by status: a long run prints them, to show what the cases reached. */
  const statuses = new Map<number, number>();
  return {
    app: server.app,
    async send(request, what) {
      const description = what ?? `${request.method ?? 'GET'} ${shown(request.url)}${request.payload !== undefined ? ` body ${shown(request.payload)}` : ''}`;
      const response = await server.app.inject(request);
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      checkAnswer(response, description);
      heap.check(description);
      return response;
    },
    async close(name) {
      try {
        const { peak, retained } = heap.settle();
        if (LONG_RUN) {
          const answers = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status} x${n}`).join(', ');
          // maxRSS (KB): the process's high-water mark, PGlite's WebAssembly memory included; shown, not bounded.
          const rss = mb(process.resourceUsage().maxRSS * 1024);
          console.log(`fuzz ${name}: answers ${answers}; heap peak +${mb(peak)} (garbage included), kept +${mb(retained)} after collection; process max RSS ${rss}`);
        }
      } finally {
        await server.close();
      }
    },
  };
}
