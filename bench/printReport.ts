/** The bench's report printed as tables, and written to bench/results. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { count, formatTable, kb, pct, spreadOf } from './summarize';
import { resultsDir, CONFIG, type Variant } from './benchConfig';
import type { MetricSummary, ScenarioSummary, Report } from './buildReport';
import { guideTimeText } from './printGuideTime';

/** Rows of a per-click table, one per metric. */
export function metricRows(title: string, metrics: ScenarioSummary['metrics'], withProcessTime: boolean): string[][] {
  const rows: string[][] = [[title, 'baseline', 'agent', 'added (median)', 'added min..max', 'ratio (median)']];
  const line = (label: string, m: MetricSummary) =>
    rows.push([
      label,
      m.baselineUsPerClick.median.toFixed(2),
      m.agentUsPerClick.median.toFixed(2),
      m.addedUsPerClick.median.toFixed(2),
      `${m.addedUsPerClick.min.toFixed(2)} .. ${m.addedUsPerClick.max.toFixed(2)}`,
      `${m.ratio.median.toFixed(2)}x`,
    ]);
  line('TaskDuration (CDP)', metrics.TaskDuration);
  line('ScriptDuration (CDP)', metrics.ScriptDuration);
  line('ThreadTime, main-thread CPU (CDP)', metrics.ThreadTime);
  line('dispatch loop (performance.now)', metrics.dispatchLoop);
  if (withProcessTime) line('ProcessTime, renderer CPU incl. worker', metrics.ProcessTime);
  return rows;
}

/** The table of one pipeline pass. */
export function printPipeline(p: Report['pipelines'][number]): void {
  const pipelineConfig = CONFIG.pipeline;
  const ps = p.summary;
  console.log(
    `\nworker pipeline, ${p.profile} clicks: ${count(pipelineConfig.events)} clicks x ${pipelineConfig.repetitions} reps, ${pipelineConfig.chunk} per call; ` +
      `${p.setup.depthMin}-${p.setup.depthMax} levels, ${count(p.setup.meanEventJsonChars)} JSON chars a click, ` +
      `${(p.setup.meanJzbChars / 1024).toFixed(1)} KB jzb a payload (${p.setup.compressionRatio.toFixed(1)}:1)\n`,
  );
  const mbPerSecond = (variant: 'hostFilters' | 'noFilters' | 'floor') => {
    const ts = p.timings.filter((t) => t.variant === variant);
    return spreadOf(ts.map((t) => t.jsonChars / 1e6 / (t.totalMs / 1000))).median.toFixed(1);
  };
  const usPerEvent = (variant: 'hostFilters' | 'noFilters' | 'floor', part: 'prepareMs' | 'encodeMs') => {
    const ts = p.timings.filter((t) => t.variant === variant);
    return spreadOf(ts.map((t) => (t[part] * 1000) / t.events)).median.toFixed(1);
  };
  const pipelineRows: string[][] = [
    ['worker pipeline', 'events/s (median)', 'min..max', 'prepare µs/event', 'encode µs/event', 'JSON MB/s', 'vs zlib floor'],
  ];
  const prow = (label: string, variant: 'hostFilters' | 'noFilters' | 'floor') => {
    const r = ps.eventsPerSecond[variant];
    pipelineRows.push([
      label, count(r.median), `${count(r.min)} .. ${count(r.max)}`, usPerEvent(variant, 'prepareMs'), usPerEvent(variant, 'encodeMs'),
      mbPerSecond(variant), `${ps.vsFloor[variant].median.toFixed(2)}x`,
    ]);
  };
  prow('prepare + encode, host filters', 'hostFilters');
  prow('prepare + encode, no filters', 'noFilters');
  prow('zlib floor: compression alone (CompressionStream)', 'floor');
  console.log(formatTable(pipelineRows));
  console.log(`host filters: ${p.setup.filters}\nprepare is ${(ps.prepareShare.median * 100).toFixed(0)}% of the pipeline's time with them; ` +
    `the floor compresses the very payload texts the pipeline made (${p.setup.batches / (pipelineConfig.events / pipelineConfig.chunk)} per call)`);

}

export function printReport(report: Report): void {
  const { schedule, runs, burst: burstConfig } = CONFIG;
  const env = report.environment;
  const problems = [...report.samples, ...report.burst.samples, ...report.large.samples].flatMap((s) =>
    s.problems.map((p) => `${s.scenario} run ${s.run} ${s.variant}: ${p}`),
  );
  problems.push(...report.isolatedClicks.problems.map((text) => `isolated clicks: ${text}`));
  for (const p of report.pipelines) {
    problems.push(...p.problems.map((text) => `pipeline worker page (${p.profile}): ${text}`));
    problems.push(...p.setup.problems.map((text) => `pipeline check (${p.profile}): ${text}`));
  }
  const elements = report.samples[0]?.elementCount ?? 0;
  console.log(
    `\nWaymark bench: ${runs} runs x ${schedule.clicks} clicks (${schedule.clicksPerTask} per task, a task every ${schedule.taskIntervalMs} ms) ` +
      `on a ${elements}-element page; Chromium ${env.chromium}, Node ${env.node}, ${env.cpuCount} CPUs`,
  );
  const load = report.machineLoad;
  console.log(load
    ? `other processes used ${pct(load.otherShare)} of the ${load.cpuCount} CPUs during the ${load.wallSeconds.toFixed(0)} s run ` +
      `(the bench ${pct(load.benchSeconds / (load.wallSeconds * load.cpuCount))}, hypervisor steal ${pct(load.stealShare)})\n`
    : 'other processes\' CPU use: unknown (no /proc)\n');
  console.log(formatTable(metricRows('main thread, µs per click', report.metrics, true)));

  const b = report.burst;
  const lt = b.longTasks;
  console.log(
    `\n${burstConfig.runs} runs x ${burstConfig.schedule.clicks} clicks back to back, ${burstConfig.schedule.clicksPerTask} per task ` +
      `(window: burst + ${burstConfig.settleMs} ms)\n`,
  );
  console.log(formatTable(metricRows('burst, main thread, µs per click', b.metrics, false)));
  console.log('');
  const perRun = (variant: Variant) => lt.perRun.map((r) => r[variant].length).join(', ');
  console.log(formatTable([
    ['burst, long tasks (> 50 ms)', 'baseline', 'agent'],
    ['long tasks, per run', perRun('baseline'), perRun('agent')],
    ['longest long task, ms', lt.baselineCount ? lt.longestMs.baseline.toFixed(0) : '-', lt.agentCount ? lt.longestMs.agent.toFixed(0) : '-'],
    [`longest task's dispatch of ${burstConfig.schedule.clicksPerTask} clicks, ms (median)`,
      lt.longestDispatchTaskMs.baseline.median.toFixed(1), lt.longestDispatchTaskMs.agent.median.toFixed(1)],
  ]));

  console.log(`\nthe large page: ${report.large.samples[0]?.elementCount ?? 0} elements, a DOM mutation every 16 ms, ${CONFIG.large.runs} runs x ${schedule.clicks} paced clicks\n`);
  console.log(formatTable(metricRows('large page, main thread, µs per click', report.large.metrics, false)));

  for (const p of report.pipelines) printPipeline(p);

  const iso = report.isolatedClicks;
  const isoConfig = CONFIG.isolated;
  console.log(`\n${isoConfig.clicks} isolated clicks per page (${isoConfig.idleMs} ms quiet before each, a ${isoConfig.settleMs} ms window): ` +
    'main-thread time of a window (TaskDuration), µs; added = (click window − idle window) with the agent, minus the same without\n');
  const us = (n: number) => n.toFixed(0);
  console.log(formatTable([
    ['isolated click', 'window p50', 'window p90', 'idle window p50', 'added p50', 'added p90'],
    ['no agent', us(iso.spreads.baseline.median), us(iso.spreads.baseline.p90), us(iso.idleSpreads.baseline.median), '', ''],
    [`agent, worker mode (${iso.modes.worker ?? '?'})`, us(iso.spreads.worker.median), us(iso.spreads.worker.p90), us(iso.idleSpreads.worker.median),
      us(iso.added.worker.p50), us(iso.added.worker.p90)],
    [`agent, main-thread mode (${iso.modes['main-thread'] ?? '?'})`, us(iso.spreads['main-thread'].median), us(iso.spreads['main-thread'].p90),
      us(iso.idleSpreads['main-thread'].median), us(iso.added['main-thread'].p50), us(iso.added['main-thread'].p90)],
    ...(['pendo', 'posthog'] as const).map((peer) => [peer === 'pendo' ? 'Pendo agent (@pendo/agent)' : 'posthog-js', us(iso.spreads[peer].median),
      us(iso.spreads[peer].p90), us(iso.idleSpreads[peer].median), us(iso.added[peer].p50), us(iso.added[peer].p90)]),
  ]));
  const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : 'n/a');
  console.log(`\nWaymark (worker) against the peers, added p50: ${ratio(iso.added.worker.p50, iso.added.pendo.p50)} of Pendo's, ` +
    `${ratio(iso.added.worker.p50, iso.added.posthog.p50)} of posthog-js's; p90: ${ratio(iso.added.worker.p90, iso.added.pendo.p90)} of Pendo's`);

  const attr = report.attribution;
  console.log(`\n${CONFIG.attribution.clicks} isolated clicks per agent, traced: the agent's own main-thread time per click window (its script calls ` +
    "in others' tasks, the tasks it started; thread time), its median without a click taken off, µs\n");
  const agentNames = { worker: 'Waymark, worker mode', 'main-thread': 'Waymark, main-thread mode', pendo: 'Pendo agent (@pendo/agent)', posthog: 'posthog-js' } as const;
  console.log(formatTable([
    ['agent', 'p50', 'p90', 'background per window'],
    ...(Object.keys(agentNames) as Array<keyof typeof agentNames>).filter((a) => attr.perClick[a]).map((a) => [agentNames[a], us(attr.perClick[a].p50), us(attr.perClick[a].p90), us(attr.perClick[a].background)]),
  ]));
  if (attr.perClick.worker && attr.perClick.pendo) {
    console.log(`\nWaymark (worker) against the peers, own time p50: ${ratio(attr.perClick.worker.p50, attr.perClick.pendo.p50)} of Pendo's` +
      (attr.perClick.posthog ? `, ${ratio(attr.perClick.worker.p50, attr.perClick.posthog.p50)} of posthog-js's` : ''));
  }
  problems.push(...attr.problems.map((text) => `click attribution: ${text}`));

  const gt = report.guideTime;
  console.log(`\n${CONFIG.guideRuns} runs per guide case and surface\n`);
  console.log(guideTimeText(gt));
  problems.push(...gt.problems.map((text) => `guide time: ${text}`));

  const side = report.sideBySide;
  console.log(`\nevery agent on the same page: startup (navigation to ready + 1 s), ${CONFIG.sideBySide.clicks} real clicks back to back, ` +
    'long tasks in them, heap after a forced GC; added over the page without an agent\n');
  const names: Record<string, string> = { worker: 'Waymark, worker', 'main-thread': 'Waymark, main thread', pendo: "Pendo's agent", posthog: 'posthog-js' };
  console.log(formatTable([
    ['agent', 'startup task ms', 'startup script ms', 'µs per real click', 'long tasks', 'heap MB'],
    ...Object.entries(side.added).map(([variant, a]) => [names[variant] ?? variant, a.startupTaskMs.toFixed(1), a.startupScriptMs.toFixed(1),
      a.burstUsPerClick.toFixed(0), String(a.longTasks), a.heapMb.toFixed(2)]),
  ]));
  problems.push(...side.problems.map((text) => `side by side: ${text}`));

  console.log('');
  const bundleRows: string[][] = [['bundle', 'raw KB', 'gzip KB', 'budget KB (gzip)', '']];
  for (const bundle of report.bundles) {
    bundleRows.push([bundle.file, kb(bundle.raw), kb(bundle.gzip), kb(bundle.budget), bundle.withinBudget ? 'within budget' : 'OVER BUDGET']);
  }
  console.log(formatTable(bundleRows));

  console.log('');
  const targetRows: string[][] = [['target', 'value', 'target', '']];
  for (const t of report.targets) targetRows.push([t.name, t.value, t.target, t.pass ? 'PASS' : 'MISS']);
  console.log(formatTable(targetRows));

  for (const [label, d] of [['', report.delivery], ['burst ', report.burst.delivery]] as const) {
    if (d.stored === d.fired) continue;
    console.log(`\n!!! DELIVERY MISMATCH: the collector stored ${d.stored} of ${d.fired} ${label}clicks fired on agent pages !!!`);
    for (const r of d.perRun) if (r.stored !== r.fired) console.log(`!!!   ${label}run ${r.run}: stored ${r.stored} of ${r.fired}`);
  }
  if (report.delivery.storedTotalForApiKey !== report.delivery.fired) {
    console.log(`\nnote: /api/events holds ${report.delivery.storedTotalForApiKey} click events for apiKey=${CONFIG.apiKey} in all (read with limit 10000)`);
  }
  if (load && load.otherShare > 0.1) {
    console.log(`\n!!! other processes used ${pct(load.otherShare)} of the CPUs during this run: every timing above is inflated by them !!!`);
  }
  if (problems.length) {
    console.log(`\n!!! the pages logged ${problems.length} errors or warnings:`);
    for (const line of problems.slice(0, 20)) console.log(`!!!   ${line}`);
  }
}

export function writeResults(report: Report): void {
  mkdirSync(resultsDir, { recursive: true });
  // ':' is not allowed in Windows file names, so the timestamp uses '-' there.
  const stamp = String(report.environment.date).replace(/[:.]/g, '-');
  // Float noise (35.742999999999995) makes the JSON hard to read; 4 decimals is 0.1 µs for ms values.
  const json = `${JSON.stringify(report, (_, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1e4) / 1e4 : v), 2)}\n`;
  const file = join(resultsDir, `bench-${stamp}.json`);
  writeFileSync(file, json);
  writeFileSync(join(resultsDir, 'latest.json'), json);
  console.log(`\nresults: ${file} (and bench/results/latest.json)`);
}
