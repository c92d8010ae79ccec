/**
 * The guide part's tables (bench/measureGuideTime.ts) and issue #34's goals beside its figures, printed by
 * `npm run bench:guides` and by `npm run bench`.
 */
import { CONFIG } from './benchConfig';
import { formatTable } from './summarize';
import type { GuideCase, GuideCaseSummary, GuideTimeRun, MainThreadSummary } from './measureGuideTime';
import { BENCH_SCRIPT, describeScript } from './observeGuideWindow';

export const GUIDE_CASE_NAMES: Record<GuideCase, string> = {
  cold: 'Waymark, cold',
  warm: 'Waymark, warm',
  returning: 'Waymark, returning',
  pendo: "Pendo's agent",
};

/** One goal of the issue against its figure. */
export interface GuideGoal {
  name: string;
  target: string;
  value: string;
  pass: boolean;
}

const WAYMARK_CASES: readonly GuideCase[] = ['cold', 'warm', 'returning'];

const ms = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
/** A longest-task figure: 0 means no task over 50 ms, which the Long Tasks API does not report. */
const task = (n: number) => (!Number.isFinite(n) ? '-' : n === 0 ? '<50' : n.toFixed(0));

/** The cases of `run` that have figures, surface by surface. */
function measured(run: GuideTimeRun): Array<{ surface: GuideTimeRun['surfaces'][number]; kind: GuideCase; s: GuideCaseSummary }> {
  return run.surfaces.flatMap((surface) =>
    run.cases.map((kind) => ({ surface, kind, s: run.summary[surface][kind] })).filter((c) => c.s.runs > 0),
  );
}

/** Issue #34's goals, one row per Waymark case and surface, and the cold lightbox's. */
export function guideGoals(run: GuideTimeRun): GuideGoal[] {
  const { guideLongestTaskMs, guideLoafBlockingMs, guideVisibleP90Ms, guidePendoRatio } = CONFIG.targets;
  const base = run.baseline;
  const goals: GuideGoal[] = measured(run)
    .filter((c) => WAYMARK_CASES.includes(c.kind))
    .map(({ surface, kind, s }) => ({
      name: `${surface}, ${kind}: the agent's longest task p90 / its long-frame blocking median (a task or frame it ran a script in)`,
      target: `< ${guideLongestTaskMs} / <= ${guideLoafBlockingMs} ms`,
      value: `${task(s.agentLongestTaskMs.p90)} / ${ms(s.agentLoafBlockingMs.p50)} ms (any task: ${task(s.longestTaskMs.p90)}, from guide.json on ` +
        `${task(s.guideLongestTaskMs.p90)}; all long frames ${ms(s.loafBlockingMs.p50)}; no agent: ${task(base.longestTaskMs.p90)} / ${ms(base.loafBlockingMs.p50)})`,
      pass: s.agentLongestTaskMs.p90 < guideLongestTaskMs && s.agentLoafBlockingMs.p50 <= guideLoafBlockingMs,
    }));
  const cold = run.summary.lightbox.cold;
  const pendo = run.summary.lightbox.pendo;
  if (run.surfaces.includes('lightbox') && cold.runs > 0) {
    goals.push({
      name: `lightbox, cold: visible after guide.json, p90 (${cold.runs} runs)`,
      target: `<= ${guideVisibleP90Ms} ms`,
      value: `${ms(cold.visibleMs.p90, 1)} ms`,
      pass: cold.visibleMs.p90 <= guideVisibleP90Ms,
    });
    if (pendo.runs > 0) {
      goals.push({
        name: "lightbox, cold: visible after guide.json, median against Pendo's median in the same run",
        target: `<= ${guidePendoRatio}x`,
        value: `${(cold.visibleMs.p50 / pendo.visibleMs.p50).toFixed(2)}x (${ms(cold.visibleMs.p50, 1)} vs ${ms(pendo.visibleMs.p50, 1)} ms)`,
        pass: cold.visibleMs.p50 / pendo.visibleMs.p50 <= guidePendoRatio,
      });
    }
  }
  return goals;
}

/**
 * The same goals folded for the full bench's targets table: the worst Waymark case of all surfaces, Pendo's and
 * the page without an agent beside.
 */
export function guideTargetRows(run: GuideTimeRun): GuideGoal[] {
  const { guideLongestTaskMs, guideLoafBlockingMs } = CONFIG.targets;
  const cases = measured(run);
  const waymark = cases.filter((c) => WAYMARK_CASES.includes(c.kind));
  const pendo = cases.filter((c) => c.kind === 'pendo');
  if (!waymark.length) return [];
  const worst = (list: typeof cases, read: (s: GuideCaseSummary) => number) =>
    list.reduce((m, c) => (read(c.s) > read(m.s) ? c : m), list[0]!);
  const task90 = worst(waymark, (s) => s.agentLongestTaskMs.p90);
  const loaf50 = worst(waymark, (s) => s.agentLoafBlockingMs.p50);
  const pendoTask = pendo.length ? worst(pendo, (s) => s.agentLongestTaskMs.p90).s.agentLongestTaskMs.p90 : NaN;
  const pendoLoaf = pendo.length ? worst(pendo, (s) => s.agentLoafBlockingMs.p50).s.agentLoafBlockingMs.p50 : NaN;
  const rest = guideGoals(run).filter((g) => g.name.startsWith('lightbox, cold: visible'));
  return [
    {
      name: `guides: longest main-thread task the agent ran a script in, navigation to 2 s after the guide, p90, worst Waymark case of ${waymark.length} (Pendo's worst beside)`,
      target: `< ${guideLongestTaskMs} ms`,
      value: `${task(task90.s.agentLongestTaskMs.p90)} ms, ${task90.surface} ${task90.kind} (any task ${task(task90.s.longestTaskMs.p90)}, from its guide.json on ` +
        `${task(task90.s.guideLongestTaskMs.p90)}; Pendo ${task(pendoTask)}; the page alone ${task(run.baseline.longestTaskMs.p90)} ms)`,
      pass: waymark.every((c) => c.s.agentLongestTaskMs.p90 < guideLongestTaskMs),
    },
    {
      name: "guides: blocking time of the long frames the agent ran a script in, over the same window, median, worst Waymark case (Pendo's beside)",
      target: `<= ${guideLoafBlockingMs} ms`,
      value: `${ms(loaf50.s.agentLoafBlockingMs.p50)} ms, ${loaf50.surface} ${loaf50.kind} (all long frames ${ms(loaf50.s.loafBlockingMs.p50)}; Pendo ${ms(pendoLoaf)}; ` +
        `the page alone ${ms(run.baseline.loafBlockingMs.p50)} ms)`,
      pass: waymark.every((c) => c.s.agentLoafBlockingMs.p50 <= guideLoafBlockingMs),
    },
    ...rest.map((g) => ({ ...g, name: `guides: ${g.name}` })),
  ];
}

/** `waymark.overlay.js 4, - 1`: the top script's file of each run's longest frame, counted. */
function topFiles(s: MainThreadSummary): string {
  return Object.entries(s.topFileOfLongestFrame)
    .sort((a, b) => b[1] - a[1])
    .map(([file, n]) => `${file} ${n}`)
    .join(', ');
}

/** The guide part's tables, its longest frames with their scripts, what was not shown, and the goals. */
export function guideTimeText(run: GuideTimeRun): string {
  const lines: string[] = [];
  const cases = measured(run);
  lines.push(
    'guide visible after its guide.json is handed to the browser, ms (a new visitor and browser context each run; ' +
      `p90 = the value ranked ${Math.ceil(0.9 * CONFIG.guideRuns)} of ${CONFIG.guideRuns} runs)\n`,
  );
  lines.push(formatTable([
    ['surface', 'case', 'runs', 'median', 'p90', 'max', 'from navigation start, median'],
    ...cases.map(({ surface, kind, s }) => [surface, GUIDE_CASE_NAMES[kind], String(s.runs), ms(s.visibleMs.p50, 1), ms(s.visibleMs.p90, 1),
      ms(s.visibleMs.max, 1), ms(s.fromNavigationMedian)]),
  ]));
  const lightbox = run.summary.lightbox;
  if (run.surfaces.includes('lightbox') && lightbox.pendo.runs > 0) {
    const ratio = (k: GuideCase) => (lightbox[k].runs ? `${k} ${(lightbox[k].visibleMs.p50 / lightbox.pendo.visibleMs.p50).toFixed(2)}x` : '');
    lines.push(`\nlightbox, Waymark / Pendo, median: ${WAYMARK_CASES.map(ratio).filter(Boolean).join(', ')}`);
  }

  lines.push(
    '\nmain thread from navigation start to 2 s after the guide shows (no agent: to 2 s after load), ms: the longest task (Long Tasks API; ' +
      '<50 = none over 50 ms; the same from guide.json\'s hand-over on, after the page\'s own load; and of the tasks the agent ran a script over 5 ms in), ' +
      'long tasks over all runs, long-animation-frame blocking time summed per run (all frames; the frames the agent ran a script in), the agent\'s own scripts in long frames, ' +
      "and the file of the longest script in each run's longest frame\n",
  );
  const row = (surface: string, name: string, s: MainThreadSummary & { runs: number }) => [
    surface, name, String(s.runs), task(s.longestTaskMs.p50), task(s.longestTaskMs.p90), task(s.longestTaskMs.max), task(s.guideLongestTaskMs.p90),
    task(s.agentLongestTaskMs.p90), `${s.longTasks} (${s.runsWithLongTask} runs)`, s.loafSupported ? ms(s.loafBlockingMs.p50) : 'n/a',
    s.loafSupported ? ms(s.loafBlockingMs.p90) : 'n/a', s.loafSupported ? ms(s.agentLoafBlockingMs.p50) : 'n/a', ms(s.agentScriptMs.p50), topFiles(s),
  ];
  lines.push(formatTable([
    ['surface', 'case', 'runs', 'longest task p50', 'p90', 'max', 'from guide.json on, p90', "the agent's (it ran a script in it), p90", 'long tasks',
      'LoAF blocking median', 'p90', "the agent's frames' blocking, median", 'agent script in long frames, median', "longest frame's top script, per run"],
    ...(run.baseline.runs ? [row('-', 'no agent (the page alone)', run.baseline)] : []),
    ...cases.map(({ surface, kind, s }) => row(surface, GUIDE_CASE_NAMES[kind], s)),
  ]));

  lines.push(
    '\nthe longest animation frame of each case over its runs, then the longest from guide.json\'s hand-over on (the guide\'s own work), ' +
      `and their scripts over 5 ms (file, function, invoker, duration; ${BENCH_SCRIPT} is the bench's frame watch):`,
  );
  const frameLine = (label: string, s: MainThreadSummary, which: 'longestFrame' | 'longestGuideFrame' = 'longestFrame') => {
    const f = s[which];
    if (!f) return `  ${label}: no frame over 50 ms`;
    const scripts = f.scripts.slice(0, 3).map(describeScript).join('; ') || 'no script over 5 ms (style, layout, paint or the browser)';
    return `  ${label}: ${f.durationMs.toFixed(0)} ms at ${f.startMs.toFixed(0)} ms (${label === 'no agent' ? 'load + 0' : 'guide'} at ${f.guideAtMs.toFixed(0)}), ` +
      `blocking ${f.blockingMs.toFixed(0)} ms, run ${f.run}: ${scripts}`;
  };
  if (run.baseline.runs) lines.push(frameLine('no agent', run.baseline));
  for (const { surface, kind, s } of cases) {
    lines.push(frameLine(`${surface}, ${GUIDE_CASE_NAMES[kind]}`, s));
    lines.push(frameLine(`${surface}, ${GUIDE_CASE_NAMES[kind]}, from guide.json`, s, 'longestGuideFrame'));
  }

  for (const why of run.unsupported) lines.push(`\nnot shown: ${why}`);

  lines.push('');
  lines.push(formatTable([
    ['goal (issue #34)', 'value', 'target', ''],
    ...guideGoals(run).map((g) => [g.name, g.value, g.target, g.pass ? 'PASS' : 'MISS']),
  ]));
  return lines.join('\n');
}
