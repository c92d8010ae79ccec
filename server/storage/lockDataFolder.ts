/**
 * One process owns a PGlite data folder. A second server opening it (`npm start` twice, on two ports) would
 * corrupt it: each keeps its own copy of the database in memory and writes the same files. The owner writes its
 * process id into `waymark.lock`; a lock whose process is gone (a crash, a killed terminal) is taken over.
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Takes the folder's lock, or throws naming the process that holds it; returns the release. */
export function lockDataFolder(dataDir: string): () => void {
  const file = join(dataDir, 'waymark.lock');
  const mine = String(process.pid);
  for (;;) {
    try {
      writeFileSync(file, mine, { flag: 'wx' });
      return () => {
        try {
          if (readFileSync(file, 'utf8') === mine) unlinkSync(file);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSync(file, 'utf8'));
    if (holder !== process.pid && isRunning(holder)) {
      throw new Error(
        `the data folder ${dataDir} is in use by another Waymark server (process ${holder}): stop it, or give this one a folder of its own with WAYMARK_DATA (if no server runs, delete ${file})`,
      );
    }
    unlinkSync(file); // left by a process that is gone (or by this one, reopening): taken over
  }
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
