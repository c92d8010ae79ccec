/**
 * Issue #16, startup: the files a page runs at its start carry V8's explicit compile hint as their first line
 * (vite.config.ts), so their functions compile on the streaming thread; the overlay does not (compiling all of
 * React ahead made the bench's lightbox slower: warm median 41-49 ms against 27-31 without, 2026-11-26).
 */
import { describe, expect, it } from 'vitest';
import config from '../../vite.config';

type Output = { postBanner?: string; minify?: boolean };

function outputOf(mode: string): Output {
  const resolved = (config as (env: { mode: string; command: 'build' }) => { build?: { rolldownOptions?: { output?: Output } } })({ mode, command: 'build' });
  return resolved.build?.rolldownOptions?.output ?? {};
}

describe('build targets: the compile hint', () => {
  it('heads the shim, its staging copy and the guides chunk', () => {
    for (const mode of ['shim', 'staging', 'guides']) expect(outputOf(mode).postBanner, mode).toBe('//# allFunctionsCalledOnLoad');
    expect(outputOf('staging').minify).toBe(false);
  });

  it('is not on the overlay, the worker or the other chunks', () => {
    for (const mode of ['overlay', 'worker', 'inpage', 'author', 'record', 'tools', 'forms']) expect(outputOf(mode).postBanner, mode).toBeUndefined();
  });

  it('names an unknown build mode', () => {
    expect(() => outputOf('nope')).toThrow(/unknown build mode 'nope'/);
  });
});
