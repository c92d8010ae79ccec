import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';

/** The install snippet's script (shim/snippet.html), run against a page we drive by hand. */
function runSnippet(visibilityState: 'visible' | 'hidden') {
  const html = readFileSync('shim/snippet.html', 'utf8');
  const code = html.slice(html.indexOf('<script>') + '<script>'.length, html.lastIndexOf('</script>'));
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const frames: Array<() => void> = [];
  const added: Array<Record<string, unknown>> = [];
  const element = () => ({ setAttribute(name: string, value: string) { (this as Record<string, unknown>)[name] = value; } });
  const document = { visibilityState, createElement: element, head: { appendChild: (node: Record<string, unknown>) => void added.push(node) } };
  // The page's global object is its window.
  const window: Record<string, unknown> = {
    setTimeout: (fn: () => void, ms = 0) => void timers.push({ fn, ms }),
    requestAnimationFrame: (fn: () => void) => void frames.push(fn),
    document,
    location: { host: 'shop.example' },
  };
  window.window = window;
  runInNewContext(code, window);
  /** Runs the timers due by `ms` (in the order they were set), as the page's event loop would. */
  const runTimers = (ms: number) => {
    for (const timer of timers.splice(0).sort((a, b) => a.ms - b.ms)) {
      if (timer.ms <= ms) timer.fn();
      else timers.push(timer);
    }
  };
  return { timers, frames, added, runTimers, queued: () => (window.waymark as { _q: unknown[] })._q };
}

describe('the install snippet adds waymark.js after the page\'s first paint (issue #34)', () => {
  it('a visible page: not in the page\'s first tasks, but in a task after its first frame, once', () => {
    const page = runSnippet('visible');
    expect(page.queued()).toEqual([['initialize', [{ apiKey: 'YOUR_API_KEY' }]]]);
    page.runTimers(0);
    expect(page.added).toEqual([]);
    // The frame callback itself adds nothing: the fetch's start goes to a task after the paint.
    page.frames.splice(0).forEach((frame) => frame());
    expect(page.added).toEqual([]);
    page.runTimers(0);
    expect(page.added).toHaveLength(1);
    expect(page.added[0]).toMatchObject({ async: true, src: '/waymark.js', 'data-waymark-global': 'waymark' });
    // The 1 s timer finds it added.
    page.runTimers(1000);
    expect(page.added).toHaveLength(1);
  });

  it('a hidden page (no frames): in the first timer task', () => {
    const page = runSnippet('hidden');
    expect(page.frames).toEqual([]);
    page.runTimers(0);
    expect(page.added).toHaveLength(1);
    page.runTimers(1000);
    expect(page.added).toHaveLength(1);
  });

  it('a page that paints no frame for 1 s (an offscreen frame): after 1 s', () => {
    const page = runSnippet('visible');
    page.runTimers(999);
    expect(page.added).toEqual([]);
    page.runTimers(1000);
    expect(page.added).toHaveLength(1);
  });
});
