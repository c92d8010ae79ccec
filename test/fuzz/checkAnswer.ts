/**
 * What every answer of the server to fuzzed input must be (issue #31): never a 5xx; a refusal (4xx) is JSON
 * `{ error: string }` with a message; and no answer leaves the heap far above where the run started.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { LightMyRequestResponse } from 'fastify';

/**
 * The heap growth allowed while fuzzing, checked after every answer: garbage included, and when over, measured again
 * after a full collection (only what is still held fails). A request is bounded (1 MB of body, 96 KB of URL, a 64 KB
 * jzb inflated to at most 2 MB, 256 KB an event): what one legitimately costs (its text, the parsed JSON, the rows'
 * JSON for the database) is tens of MB at most; a long run's garbage peaks at 100 to 140 MB (query values of 90,000
 * characters). 200 MB leaves room above that, and is well under what a small container gives the collector. What a response holds only while it runs is not seen
 * here: a long run prints the process's RSS high-water mark beside.
 */
export const HEAP_BOUND_BYTES = 200 * 1024 * 1024;

/**
 * Growth allowed once the run is over and the garbage collected: what the server keeps (caches, the database's
 * JS side; PGlite's own memory is WebAssembly memory, outside the JS heap). Anything kept per request would show.
 */
export const RETAINED_BOUND_BYTES = 64 * 1024 * 1024;

/** A full garbage collection (V8's, exposed for this process). */
const collect: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** Watches the heap from the moment it is made. */
export function watchHeap() {
  collect();
  const start = process.memoryUsage().heapUsed;
  let peak = 0;
  return {
    /** After an answer: the heap (garbage included) is within HEAP_BOUND_BYTES of the start. */
    check(what: string): void {
      const growth = process.memoryUsage().heapUsed - start;
      peak = Math.max(peak, growth);
      if (growth > HEAP_BOUND_BYTES) {
        // Collected first: only what is still held counts as this answer's doing.
        collect();
        const held = process.memoryUsage().heapUsed - start;
        if (held > HEAP_BOUND_BYTES) throw new Error(`heap grew ${mb(held)} over the run's start after ${what} (bound ${mb(HEAP_BOUND_BYTES)})`);
      }
    },
    /** At the end: collected, the heap is within RETAINED_BOUND_BYTES of the start. Answers the figures. */
    settle(): { peak: number; retained: number } {
      collect();
      const retained = process.memoryUsage().heapUsed - start;
      if (retained > RETAINED_BOUND_BYTES) throw new Error(`the run kept ${mb(retained)} of heap (bound ${mb(RETAINED_BOUND_BYTES)})`);
      return { peak, retained };
    },
  };
}

export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Throws, saying what was sent and answered, unless `response` is a non-5xx and any 4xx is `{ error: string }`. */
export function checkAnswer(response: LightMyRequestResponse, what: string): void {
  const said = () => `${what}\n  answered ${response.statusCode}: ${response.body.slice(0, 500)}`;
  if (response.statusCode >= 500) throw new Error(`5xx: ${said()}`);
  if (response.statusCode < 400) return;
  const type = String(response.headers['content-type'] ?? '');
  if (!type.startsWith('application/json')) throw new Error(`refusal not JSON (content-type ${type}): ${said()}`);
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    throw new Error(`refusal body does not parse: ${said()}`);
  }
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error !== 'string' || error.trim() === '') throw new Error(`refusal without an error message: ${said()}`);
}

/** A request as a failure report shows it: long values cut. */
export function shown(value: unknown, max = 300): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}
