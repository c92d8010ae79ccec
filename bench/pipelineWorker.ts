/**
 * Entry of the pipeline bench worker (bundled by bench/measurePipeline.ts with Vite at bench time): the
 * worker half of the agent's event path, timed in a real dedicated worker of the same Chromium.
 *
 * It runs the real code, `createEventPreparer` (URL transforms, privacy filter, envelope, JSON) and
 * `encodeBatches` (cut on estimates, fflate zlib, base64url), over synthetic clicks
 * (bench/createClickSource.ts), `chunk` events per call, and answers how long that took. The fflate floor
 * is `encodeJsonAsJzb` alone on the very payload texts the pipeline compressed: what the pipeline could
 * reach if preparing and batching were free.
 *
 * Protocol: one `setup` message (runs the pipeline once untimed as a warm-up and checks its output), then
 * one `measure` message per repetition: a pass over all events that times the three variants chunk by chunk,
 * interleaved, so that load from other processes hits all three alike and their ratios hold under it.
 */
import { joinBatch } from '../shared/wire/cutBatches';
import type { EnvelopeContext } from '../shared/events/enrichEvent';
import type { CapturedEvent } from '../shared/events/events';
import { strToU8 } from 'fflate';
import { decodeJzb, toBase64Url } from '../shared/wire/jzb';
import { createEventPreparer, NO_FILTERS, type EventFilters } from '../shared/events/prepareEvent';
import { compilePrivacyFilter } from '../shared/privacy/privacyFilter';
import { encodeBatches, fflateDeflate, type Deflate } from '../worker/encodeBatches';
import { nativeDeflate } from '../worker/ports';

/** What the real worker compresses with (worker/main.ts): the platform's zlib stream, else fflate. */
const DEFLATE: Deflate = nativeDeflate() ?? fflateDeflate;


import { createClickSource, elementPathDepth, type ClickProfile } from './createClickSource';

/** What one `measure` times. */
export type PipelineVariant = 'hostFilters' | 'noFilters' | 'floor';

/** Messages to the worker. */
export type PipelineRequest = { type: 'setup'; events: number; chunk: number; seed: number; profile: ClickProfile } | { type: 'measure' };

/** What `setup` found out about the workload; `problems` lists failed checks of the pipeline's output. */
export interface PipelineSetup {
  events: number;
  chunk: number;
  filters: string;
  depthMin: number;
  depthMax: number;
  /** Mean length of one event's JSON with the host filters, in characters. */
  meanEventJsonChars: number;
  /** Payloads encodeBatches made for all events, and how many were GET. */
  batches: number;
  getBatches: number;
  /** Mean jzb length of a payload, in characters. */
  meanJzbChars: number;
  /** JSON characters per jzb character. */
  compressionRatio: number;
  /** Events whose JSON holds 'redacted'. */
  redactedEvents: number;
  setupMs: number;
  problems: string[];
}

/** One variant's time over all events of a pass. */
export interface PipelineTiming {
  variant: PipelineVariant;
  events: number;
  /** prepareMs + encodeMs: sums over chunks of performance.now() around the timed work. */
  totalMs: number;
  /** The prepare loops (0 for the floor). */
  prepareMs: number;
  /** encodeBatches, or encodeJsonAsJzb for the floor. */
  encodeMs: number;
  /** JSON characters of the events (pipeline) or of the payload texts (floor). */
  jsonChars: number;
  /** Sum of the jzb lengths made, which also keeps the work from being optimised away. */
  jzbChars: number;
}

/** Answers of the worker. */
export type PipelineResponse =
  | { ok: true; setup: PipelineSetup }
  | { ok: true; timings: PipelineTiming[] }
  | { ok: false; error: string };

/**
 * A host's configuration as it reaches the worker (analytics §5): two data-only URL transforms and one
 * privacy filter compiled the way the shim compiles it.
 */
const HOST_FILTERS: EventFilters = {
  urlTransforms: [
    { attr: 'search', action: 'ExcludeKeys', data: ['session_token', 'utm_source'] },
    { attr: 'hash', action: 'Clear' },
  ],
  privacyFilters: compilePrivacyFilter(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/) ?? [],
};
const HOST_FILTERS_TEXT = 'search ExcludeKeys [session_token, utm_source], hash Clear, privacy filter /[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+/g';

/** What the worker knows about the page, as createWorkerApi holds it after init. */
const CONTEXT: EnvelopeContext = {
  identity: { visitorId: 'visitor-5f0c2e91', accountId: 'acme-corp' },
  session: { sessionId: 'Zk3pQ9vLr2', tabId: 'hT7mW2xNq8', frameId: 'c4RbY1sJd6', parentTabId: '' },
  utm: { channel: 'Direct' },
};

/**
 * The workload: its events are regenerated chunk by chunk on every pass (same seed, same events), so the
 * worker's heap holds one chunk at a time, as in production. Holding 50,000 events and the floor's ~90 MB
 * of payload texts would add GC work production never has: fflate's large buffers trigger V8 major GCs,
 * which would then walk the whole held heap.
 */
interface Workload {
  count: number;
  chunk: number;
  seed: number;
  profile: ClickProfile;
}

let workload: Workload | null = null;

/** What createEventPreparer returns. */
type Preparer = ReturnType<typeof createEventPreparer>;

type EncodeResult = Awaited<ReturnType<typeof encodeBatches>>;

/** Empty totals of one variant. */
function startTiming(variant: PipelineVariant, events: number): PipelineTiming {
  return { variant, events, totalMs: 0, prepareMs: 0, encodeMs: 0, jsonChars: 0, jzbChars: 0 };
}

/** Prepares and encodes one chunk, adding its times to `into`; generating the chunk is not timed. */
async function pipelineChunk(events: CapturedEvent[], prepare: Preparer, into: PipelineTiming): Promise<{ jsons: string[]; result: EncodeResult }> {
  const t0 = performance.now();
  // As createWorkerApi's push(): each event prepared alone, by the page's one preparer.
  const jsons: string[] = new Array(events.length);
  for (let i = 0; i < events.length; i++) jsons[i] = prepare(events[i]!, CONTEXT);
  const t1 = performance.now();
  // As createSendQueue's encodeRun(): the queued run of events, in get-or-post mode.
  const result = await encodeBatches(jsons, 'get-or-post', DEFLATE);
  const t2 = performance.now();
  into.prepareMs += t1 - t0;
  into.encodeMs += t2 - t1;
  into.totalMs += t2 - t0;
  for (const json of jsons) into.jsonChars += json.length;
  for (const b of result.batches) into.jzbChars += b.jzb.length;
  return { jsons, result };
}

/** Compresses the texts alone, adding the time to `into`. */
async function floorChunk(texts: string[], into: PipelineTiming): Promise<void> {
  for (const text of texts) {
    const t0 = performance.now();
    const jzb = toBase64Url(await DEFLATE(strToU8(text)));
    const took = performance.now() - t0;
    into.encodeMs += took;
    into.totalMs += took;
    into.jsonChars += text.length;
    into.jzbChars += jzb.length;
  }
}

/** The JSON text of each payload of `result`: what encodeBatches compressed. */
function payloadTexts(jsons: string[], result: EncodeResult): string[] {
  return result.batches.map((b) => joinBatch(jsons, b.start, b.start + b.count));
}

/**
 * Orders of the three variants, one per chunk in turn. The floor compresses the host-filters texts of the
 * same chunk, so it always comes after that variant; each variant still takes each position.
 */
const ORDERS: PipelineVariant[][] = [
  ['hostFilters', 'floor', 'noFilters'],
  ['noFilters', 'hostFilters', 'floor'],
  ['hostFilters', 'noFilters', 'floor'],
];

/**
 * One repetition: every chunk goes through the pipeline with the host's filters, through the pipeline with
 * none, and through the floor, back to back. Each pipeline has its own preparer (and URL memo), as a page
 * would. performance.now() is summed around the timed work of each chunk; the worker's clock is coarsened
 * to 100 µs with jitter (no cross-origin isolation), which averages out over 400 chunks of several ms.
 */
async function measure(w: Workload): Promise<PipelineTiming[]> {
  const host = createEventPreparer(HOST_FILTERS);
  const none = createEventPreparer(NO_FILTERS);
  const timings = {
    hostFilters: startTiming('hostFilters', w.count),
    noFilters: startTiming('noFilters', w.count),
    floor: startTiming('floor', w.count),
  };
  const next = createClickSource({ seed: w.seed, profile: w.profile });
  let chunkIndex = 0;
  for (let from = 0; from < w.count; from += w.chunk, chunkIndex++) {
    const events = next(Math.min(w.chunk, w.count - from));
    let texts: string[] = [];
    for (const variant of ORDERS[chunkIndex % ORDERS.length]!) {
      if (variant === 'hostFilters') {
        const { jsons, result } = await pipelineChunk(events, host, timings.hostFilters);
        texts = payloadTexts(jsons, result);
      } else if (variant === 'noFilters') {
        await pipelineChunk(events, none, timings.noFilters);
      } else {
        await floorChunk(texts, timings.floor);
      }
    }
  }
  return [timings.hostFilters, timings.noFilters, timings.floor];
}

/** Checks the workload and the pipeline's output, and warms the code up with one untimed pass. */
async function setup(count: number, chunk: number, seed: number, profile: ClickProfile): Promise<PipelineSetup> {
  const started = performance.now();
  const problems: string[] = [];
  const prepare = createEventPreparer(HOST_FILTERS);
  const pass = startTiming('hostFilters', count);
  const next = createClickSource({ seed, profile });
  let depthMin = Infinity;
  let depthMax = 0;
  let batches = 0;
  let getBatches = 0;
  let covered = 0;
  let redactedEvents = 0;
  let batchJsonChars = 0;
  for (let from = 0; from < count; from += chunk) {
    const events = next(Math.min(chunk, count - from));
    for (const e of events) {
      const depth = elementPathDepth(e.element!);
      depthMin = Math.min(depthMin, depth);
      depthMax = Math.max(depthMax, depth);
    }
    const { jsons, result } = await pipelineChunk(events, prepare, pass);
    for (const json of jsons) if (json.includes('redacted')) redactedEvents++;
    if (result.oversize.length) problems.push(`${result.oversize.length} events too large for a payload`);
    for (const b of result.batches) {
      batches++;
      if (b.method === 'GET') getBatches++;
      covered += b.count;
    }
    for (const text of payloadTexts(jsons, result)) batchJsonChars += text.length;
    if (from === 0) {
      // Round trip through the inflater, and the filters' effect on the first event.
      const decoded = decodeJzb(result.batches[0]!.jzb) as Array<{ url: string; props: { target?: unknown } }>;
      if (decoded.length !== result.batches[0]!.count) problems.push('the first payload does not decode to its events');
      const first = decoded[0];
      if (!first?.props.target) problems.push('the first event has no props.target');
      if (!first || first.url.includes('session_token') || first.url.includes('utm_source') || first.url.includes('#')) {
        problems.push(`the URL transforms did not apply: ${first?.url}`);
      }
    }
  }
  if (covered !== count) problems.push(`payloads carry ${covered} events, expected ${count}`);
  if (redactedEvents === 0) problems.push('the privacy filter redacted nothing');
  workload = { count, chunk, seed, profile };
  return {
    events: count,
    chunk,
    filters: HOST_FILTERS_TEXT,
    depthMin,
    depthMax,
    meanEventJsonChars: pass.jsonChars / count,
    batches,
    getBatches,
    meanJzbChars: pass.jzbChars / Math.max(1, batches),
    compressionRatio: batchJsonChars / Math.max(1, pass.jzbChars),
    redactedEvents,
    setupMs: performance.now() - started,
    problems,
  };
}

/** The worker's global scope, typed here because bench files compile with the DOM lib. */
interface BenchWorkerScope {
  onmessage: ((event: MessageEvent<PipelineRequest>) => void) | null;
  postMessage(message: PipelineResponse): void;
}

const scope = globalThis as unknown as BenchWorkerScope;
scope.onmessage = async (event) => {
  const request = event.data;
  try {
    if (request.type === 'setup') {
      scope.postMessage({ ok: true, setup: await setup(request.events, request.chunk, request.seed, request.profile) });
    } else if (!workload) {
      scope.postMessage({ ok: false, error: 'measure before setup' });
    } else {
      scope.postMessage({ ok: true, timings: await measure(workload) });
    }
  } catch (err) {
    scope.postMessage({ ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
};
