/**
 * The worker pipeline bench, Node side: bundles bench/pipelineWorker.ts with Vite at bench time, starts it as
 * a dedicated worker in a page on the server's origin (served by routes, so `new Worker(url)` is
 * same-origin), and times the pipeline over the same synthetic clicks, repetition after repetition.
 *
 * Each repetition times three variants, interleaved chunk by chunk in the worker: the pipeline with a host's
 * filters, the pipeline with none, and the fflate floor on the same payload texts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import type { ClickProfile } from './createClickSource';
import type { PipelineRequest, PipelineResponse, PipelineSetup, PipelineTiming, PipelineVariant } from './pipelineWorker';
import { assertPageSafe } from './runClickBurst';
import { spreadOf, type Spread } from './summarize';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** How the pipeline is measured. */
export interface PipelineOptions {
  /** Events per timed pass. */
  events: number;
  /** Events per prepare + encodeBatches call, as one 50 ms shim batch during a burst brings them. */
  chunk: number;
  /** Timed passes over all events (each times all three variants). */
  repetitions: number;
  /** Seed of the synthetic clicks. */
  seed: number;
  /** The shape of page the clicks come from (bench/createClickSource.ts). */
  profile: ClickProfile;
}

/** The bundled worker. */
export interface PipelineBundle {
  code: string;
  buildMs: number;
}

/** Everything one pipeline bench measured. */
export interface PipelineRun {
  profile: ClickProfile;
  bundleBytes: number;
  buildMs: number;
  setup: PipelineSetup;
  /** Every timed pass, in the order run. */
  timings: Array<PipelineTiming & { repetition: number }>;
  /** Console errors and warnings of the page and the worker. */
  problems: string[];
}

/** The figures of a {@link PipelineRun}. */
export interface PipelineSummary {
  eventsPerSecond: Record<PipelineVariant, Spread>;
  /** Per repetition, the variant's events/s over the floor's. */
  vsFloor: Record<PipelineVariant, Spread>;
  /** Per repetition, the prepare loop's share of the pipeline's time, host filters. */
  prepareShare: Spread;
}

/**
 * Bundles the bench worker as the agent's worker is bundled (vite.config.ts: IIFE, minified, production)
 * into a temporary folder, and returns its code.
 */
export async function bundlePipelineWorker(): Promise<PipelineBundle> {
  const outDir = mkdtempSync(join(tmpdir(), 'waymark-bench-pipeline-'));
  const started = performance.now();
  try {
    await build({
      configFile: false,
      root: repoRoot,
      logLevel: 'warn',
      publicDir: false,
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        outDir,
        emptyOutDir: true,
        target: 'es2020',
        minify: true,
        sourcemap: false,
        reportCompressedSize: false,
        copyPublicDir: false,
        lib: { entry: join(repoRoot, 'bench/pipelineWorker.ts'), formats: ['iife'], name: 'waymarkBenchPipeline', fileName: () => 'pipelineWorker.js' },
        rolldownOptions: { output: { minify: true } },
      },
    });
    return { code: readFileSync(join(outDir, 'pipelineWorker.js'), 'utf8'), buildMs: performance.now() - started };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** The page-side handle on the worker. */
interface PipelineWindow {
  benchWorker?: Worker;
}

/** Starts the worker in the page. Runs in the page: see runClickBurst.ts on named inner functions. */
export function startPipelineWorker(url: string): void {
  (window as unknown as PipelineWindow).benchWorker = new Worker(url);
}

/** Sends one request to the worker and resolves with its answer. Runs in the page. */
export function askPipelineWorker(args: { request: PipelineRequest; timeoutMs: number }): Promise<PipelineResponse> {
  return new Promise<PipelineResponse>((resolve, reject) => {
    const worker = (window as unknown as PipelineWindow).benchWorker;
    if (!worker) {
      reject(new Error('the pipeline worker was not started'));
      return;
    }
    const timer = setTimeout(() => reject(new Error(`the pipeline worker did not answer within ${args.timeoutMs} ms`)), args.timeoutMs);
    worker.onmessage = (event: MessageEvent<PipelineResponse>) => {
      clearTimeout(timer);
      resolve(event.data);
    };
    worker.onerror = (event: ErrorEvent) => {
      clearTimeout(timer);
      reject(new Error(`the pipeline worker failed: ${event.message}`));
    };
    worker.postMessage(args.request);
  });
}

/** Runs the pipeline bench in a fresh context of `browser`; `log` gets one line per repetition. */
export async function measurePipeline(
  browser: Browser,
  serverUrl: string,
  bundle: PipelineBundle,
  options: PipelineOptions,
  log: (line: string) => void,
): Promise<PipelineRun> {
  assertPageSafe(startPipelineWorker);
  assertPageSafe(askPipelineWorker);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console.${msg.type()}: ${msg.text()}`);
    });
    const pageUrl = `${serverUrl}/bench/pipeline.html`;
    const workerUrl = `${serverUrl}/bench/pipelineWorker.js`;
    await page.route(pageUrl, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html><title>Waymark pipeline bench</title>' }),
    );
    await page.route(workerUrl, (route) => route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body: bundle.code }));
    await page.goto(pageUrl, { waitUntil: 'load' });
    await page.evaluate(startPipelineWorker, workerUrl);

    const ask = async (request: PipelineRequest): Promise<PipelineResponse & { ok: true }> => {
      const answer = await page.evaluate(askPipelineWorker, { request, timeoutMs: 60_000 });
      if (!answer.ok) throw new Error(`pipeline worker: ${answer.error}`);
      return answer;
    };
    const setupAnswer = await ask({ type: 'setup', events: options.events, chunk: options.chunk, seed: options.seed, profile: options.profile });
    if (!('setup' in setupAnswer)) throw new Error('the pipeline worker answered setup without its facts');
    const setup = setupAnswer.setup;
    log(`  pipeline setup, ${options.profile} clicks: ${setup.events} clicks, ${setup.depthMin}-${setup.depthMax} levels, ${setup.meanEventJsonChars.toFixed(0)} JSON chars each, ` +
      `${setup.batches} payloads (${setup.getBatches} GET), ${setup.compressionRatio.toFixed(1)}:1, warm-up + checks ${setup.setupMs.toFixed(0)} ms`);

    const timings: PipelineRun['timings'] = [];
    for (let repetition = 1; repetition <= options.repetitions; repetition++) {
      const answer = await ask({ type: 'measure' });
      if (!('timings' in answer)) throw new Error('the pipeline worker answered measure without timings');
      timings.push(...answer.timings.map((t) => ({ ...t, repetition })));
      log(`  pipeline ${options.profile} rep ${repetition}: ${answer.timings.map((t) => `${t.variant} ${Math.round(t.events / (t.totalMs / 1000)).toLocaleString('en-US')}/s`).join(', ')}`);
    }
    return { profile: options.profile, bundleBytes: Buffer.byteLength(bundle.code), buildMs: bundle.buildMs, setup, timings, problems };
  } finally {
    await context.close();
  }
}

/** Medians and ranges of a {@link PipelineRun}. */
export function summarizePipeline(run: PipelineRun): PipelineSummary {
  const variants: PipelineVariant[] = ['hostFilters', 'noFilters', 'floor'];
  const rate = (t: PipelineTiming) => t.events / (t.totalMs / 1000);
  const repetitions = [...new Set(run.timings.map((t) => t.repetition))];
  const of = (repetition: number, variant: PipelineVariant) => {
    const t = run.timings.find((x) => x.repetition === repetition && x.variant === variant);
    if (!t) throw new Error(`pipeline repetition ${repetition} has no ${variant} timing`);
    return t;
  };
  const eventsPerSecond = {} as PipelineSummary['eventsPerSecond'];
  const vsFloor = {} as PipelineSummary['vsFloor'];
  for (const v of variants) {
    eventsPerSecond[v] = spreadOf(repetitions.map((r) => rate(of(r, v))));
    vsFloor[v] = spreadOf(repetitions.map((r) => rate(of(r, v)) / rate(of(r, 'floor'))));
  }
  const prepareShare = spreadOf(repetitions.map((r) => {
    const t = of(r, 'hostFilters');
    return t.prepareMs / (t.prepareMs + t.encodeMs);
  }));
  return { eventsPerSecond, vsFloor, prepareShare };
}
