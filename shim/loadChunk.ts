/**
 * The agent's lazy chunks (guides, overlay, privacy, prompts, frames, the in-page worker): where each file is,
 * and loading one. shim/importChunk.ts tries a failed fetch again; a chunk that still cannot load is logged
 * ('the {name} module did not load (url): error') and the caller goes on without it.
 */
import type { AgentAsset, AgentEnvironment } from './agentOptions';
import { importChunk } from './importChunk';
import type { LogLevel } from '../shared/protocol';

/** `?v=` and the build's version of the agent's other files (vite.config.ts, from scripts/build.mjs), or ''. */
declare const __WAYMARK_ASSET_QUERY__: string;

/**
 * The URL of one of the agent's files: the bundler's name for it, or `waymark.{name}.js` beside waymark.js, with the
 * build's version (`?v=`: a server that has that build answers it as immutable, so a returning visitor's browser
 * uses its copy without asking again).
 */
export function assetUrlOf(env: AgentEnvironment, name: AgentAsset): string {
  return env.assets?.[name] ?? new URL(`waymark.${name}.js${__WAYMARK_ASSET_QUERY__}`, env.assetBase).href;
}

/** Imports the chunk `name` and hands it to `use`; null when it cannot load (logged, with `consequence`). */
export type ChunkLoader = <M, T>(name: AgentAsset, use: (m: M) => T, consequence?: string) => Promise<T | null>;

export function createChunkLoader(env: AgentEnvironment, log: (level: LogLevel, message: string) => void): ChunkLoader {
  return (name, use, consequence = '') => {
    const url = assetUrlOf(env, name);
    return importChunk(url).then(use as (m: unknown) => ReturnType<typeof use>, (err: unknown) => {
      log('error', `the ${name} module did not load (${url}): ${String(err)}${consequence}`);
      return null;
    });
  };
}
