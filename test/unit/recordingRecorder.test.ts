/**
 * issue #18, analytics §9 Recorder: "mousemove sampling 50 ms, scroll 100 ms, viewport resize 200 ms, media
 * 500 ms, iframe and stylesheet load timeout 5000 ms". Mousemove, scroll and media reach rrweb through its
 * `sampling` option (shim/recording/index.ts); rrweb has no option for the other three and holds them itself:
 * this pins them in the @rrweb/record file the chunk bundles, so an upgrade that changes them fails here.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { RECORDER_SAMPLING } from '../../shared/constants';

const require = createRequire(import.meta.url);
const recordJs = readFileSync(require.resolve('@rrweb/record').replace(/record\.cjs$/, 'record.js'), 'utf8');
const chunkSource = readFileSync(new URL('../../shim/recording/index.ts', import.meta.url), 'utf8');

describe('analytics §9 Recorder constants', () => {
  it('are the spec values', () => {
    expect(RECORDER_SAMPLING).toEqual({ mousemoveMs: 50, scrollMs: 100, viewportResizeMs: 200, mediaMs: 500, loadTimeoutMs: 5000 });
  });

  it('mousemove, scroll and media go to rrweb sampling', () => {
    expect(chunkSource).toContain('sampling: { mousemove: RECORDER_SAMPLING.mousemoveMs, scroll: RECORDER_SAMPLING.scrollMs, media: RECORDER_SAMPLING.mediaMs }');
  });

  it("rrweb's own viewport resize throttle and iframe / stylesheet load timeouts are the spec's", () => {
    const resize = /function initViewportResizeObserver[\s\S]*?\n\s*(\d+)\s*\n\s*\)\s*\n\s*\);\s*\n\s*return on\("resize"/.exec(recordJs);
    expect(Number(resize?.[1])).toBe(RECORDER_SAMPLING.viewportResizeMs);
    const timeouts = [...recordJs.matchAll(/(iframeLoadTimeout|stylesheetLoadTimeout) = (5e3|\d+)/g)].map((m) => [m[1], Number(m[2])]);
    expect(timeouts.length).toBeGreaterThanOrEqual(2);
    for (const [, ms] of timeouts) expect(ms).toBe(RECORDER_SAMPLING.loadTimeoutMs);
  });

  it('privacy by default: inputs masked, the block class and attribute, cross-origin iframes off', () => {
    expect(chunkSource).toMatch(/maskAllInputs: true/);
    expect(chunkSource).toMatch(/blockClass: RECORDING_BLOCK_CLASS/);
    expect(chunkSource).toContain('blockSelector: `[data-${RECORDING_BLOCK_CLASS}]`');
    expect(chunkSource).toMatch(/recordCrossOriginIframes: false/);
  });
});
