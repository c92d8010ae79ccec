/**
 * bench/observeGuideWindow's reading of a page's main thread (issue #34): which long tasks and long frames are the
 * agent's. A long task is the agent's when one of its scripts (a long-animation-frame script entry) started in it;
 * the page's own first layout is not, however long.
 */
import { describe, expect, it } from 'vitest';
import { summarizeWindow } from '../../bench/observeGuideWindow';

const isWaymark = (file: string) => file.startsWith('waymark') || file.startsWith('page inline');

const script = (sourceURL: string, startTime: number, duration: number) => ({
  sourceURL, sourceFunctionName: '', invoker: sourceURL, invokerType: 'classic-script', startTime, duration, forcedStyleAndLayoutDuration: 0,
});

/** The page's layout (a 94 ms task, no script in it), then waymark.js's start in a 60 ms task, then Pendo's. */
const record = {
  visibleAt: 600,
  timeOrigin: 0,
  loafSupported: true,
  longTasks: [
    { startTime: 140, duration: 94 },
    { startTime: 260, duration: 60 },
    { startTime: 400, duration: 120 },
  ],
  frames: [
    { startTime: 138, duration: 110, blockingDuration: 44, scripts: [] },
    { startTime: 258, duration: 70, blockingDuration: 10, scripts: [script('http://127.0.0.1:1/waymark.js', 260.4, 40)] },
    { startTime: 398, duration: 130, blockingDuration: 70, scripts: [script('http://127.0.0.1:1/pendo.js', 400, 110)] },
  ],
};

describe('summarizeWindow', () => {
  it("counts a long task as the agent's only when one of its scripts started in it", () => {
    const window = summarizeWindow(record, isWaymark);
    expect(window.longestTaskMs).toBe(120);
    expect(window.agentLongestTaskMs).toBe(60);
    expect(window.loafBlockingMs).toBe(124);
    expect(window.agentLoafBlockingMs).toBe(10);
    expect(window.agentScriptMs).toBe(40);
  });

  it('gives 0 when the agent ran no script in a long task, however long the page is', () => {
    const window = summarizeWindow(record, () => false);
    expect(window.longestTaskMs).toBe(120);
    expect(window.agentLongestTaskMs).toBe(0);
    expect(window.agentLoafBlockingMs).toBe(0);
  });

  it("takes a script that starts within a millisecond before the task's rounded start as the task's", () => {
    const early = { ...record, frames: [{ ...record.frames[1]!, scripts: [script('http://127.0.0.1:1/waymark.js', 259.5, 40)] }] };
    expect(summarizeWindow(early, isWaymark).agentLongestTaskMs).toBe(60);
    const outside = { ...record, frames: [{ ...record.frames[1]!, scripts: [script('http://127.0.0.1:1/waymark.js', 325, 8)] }] };
    expect(summarizeWindow(outside, isWaymark).agentLongestTaskMs).toBe(0);
  });

  it('leaves out what started after the window (2 s after the guide)', () => {
    const late = { ...record, longTasks: [{ startTime: 2700, duration: 80 }], frames: [{ ...record.frames[1]!, startTime: 2698, scripts: [script('waymark.js', 2701, 30)] }] };
    const window = summarizeWindow(late, isWaymark);
    expect(window.agentLongestTaskMs).toBe(0);
    expect(window.longestTaskMs).toBe(0);
  });
});
