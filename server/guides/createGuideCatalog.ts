/**
 * The guide definitions of the reference server: one `*.json` file per guide in a folder, re-read when a
 * file's modification time or size changes, so an author edits a file and reloads the page.
 * The folder may also hold the launcher config (guides §2, §3): `launcher.json` for every api key, and
 * `launcher.{apiKey}.json` for one api key (which wins); these are not guides.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Guide } from '../../shared/guides/guides';
import { checkGuideLoadResponse } from '../../shared/guides/validateGuidePayload';

/** Where the guide files are and where warnings go. */
export interface GuideCatalogOptions {
  /** Folder of guide files (shape `Guide` of shared/guides/guides.ts, one per file). */
  dir: string;
  /** Receives one message per unreadable file (once per version of the file), and for a missing folder. */
  warn(message: string): void;
}

/** The current guides. */
export interface GuideCatalog {
  /** Guides of every valid file, ordered by file name. A malformed file is skipped, never thrown. */
  list(): Promise<Guide[]>;
  /**
   * guides §3 Launcher config for `apiKey`, as guide.json's `launcher` serves it: `launcher.{apiKey}.json`, else
   * `launcher.json`, read on each call; undefined when there is none or it is not JSON (warned). The agent
   * checks its shape (a bad config must reach it: the agent's error for it is what a test looks for).
   */
  launcher(apiKey: string): Promise<unknown>;
}

/** Files of the folder that hold a launcher config rather than a guide. */
const LAUNCHER_FILE = /^launcher(\.[\w-]+)?\.json$/;

interface CachedFile {
  mtimeMs: number;
  size: number;
  /** null when the file was malformed: remembered so the warning is not repeated on every request. */
  guide: Guide | null;
}

/** Creates a catalog over `options.dir`. */
export function createGuideCatalog(options: GuideCatalogOptions): GuideCatalog {
  const cache = new Map<string, CachedFile>();
  let warnedMissingDir = false;

  async function load(file: string): Promise<Guide | null> {
    const path = join(options.dir, file);
    let info;
    try {
      info = await stat(path);
    } catch {
      return null; // removed between readdir and stat
    }
    const cached = cache.get(file);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.guide;
    let guide: Guide | null = null;
    try {
      const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
      // The agent's own shape check of a guide.json response, so a file the agent would reject is reported here.
      const problem = checkGuideLoadResponse({ guides: [parsed], lastGuideStepSeen: {} });
      if (problem) throw new Error(problem);
      guide = withStepGuideIds(parsed as Guide);
    } catch (err) {
      options.warn(`skipping guide file ${path}: ${(err as Error).message}`);
    }
    cache.set(file, { mtimeMs: info.mtimeMs, size: info.size, guide });
    return guide;
  }

  return {
    async list() {
      let files: string[];
      try {
        const entries = await readdir(options.dir, { withFileTypes: true });
        files = entries.filter((e) => e.isFile() && e.name.endsWith('.json') && !LAUNCHER_FILE.test(e.name)).map((e) => e.name).sort();
        warnedMissingDir = false;
      } catch (err) {
        if (!warnedMissingDir) options.warn(`guide folder ${options.dir} cannot be read: ${(err as Error).message}`);
        warnedMissingDir = true;
        return [];
      }
      for (const name of cache.keys()) if (!files.includes(name)) cache.delete(name);
      const guides = await Promise.all(files.map(load));
      return guides.filter((g): g is Guide => g !== null);
    },
    async launcher(apiKey) {
      // Only api keys that are plain names pick a file of their own: no path can be smuggled in.
      const names = /^[\w-]+$/.test(apiKey) ? [`launcher.${apiKey}.json`, 'launcher.json'] : ['launcher.json'];
      for (const name of names) {
        let text: string;
        try {
          text = await readFile(join(options.dir, name), 'utf8');
        } catch {
          continue;
        }
        try {
          return JSON.parse(text) as unknown;
        } catch (err) {
          options.warn(`launcher config ${join(options.dir, name)} is not JSON (${(err as Error).message}): no launcher`);
          return undefined;
        }
      }
      return undefined;
    },
  };
}

/** Steps name their guide on the wire (`guideId`); an author may leave it out of the file. */
function withStepGuideIds(guide: Guide): Guide {
  return { ...guide, steps: guide.steps.map((step) => ({ ...step, guideId: step.guideId ?? guide.id })) };
}
