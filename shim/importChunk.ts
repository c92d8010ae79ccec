/**
 * Loads one of the agent's lazy chunks (guides, overlay, privacy, prompts, the in-page worker code) with
 * `import()`, trying again when the fetch fails: a CDN or a host's dev server that drops one connection
 * should not cost the visitor every guide of the page.
 *
 * A module whose fetch failed stays failed in the page's module map under that URL (HTML "fetch a single
 * module script" records the failure), so each retry asks for the same file under a URL of its own
 * (`?waymark_retry=N`). A chunk that loaded is never fetched again; the last error is what the caller logs.
 */

/** Waits before each retry, ms: two more tries, then the caller is told. */
export const CHUNK_RETRY_DELAYS_MS: readonly number[] = [500, 2000];

/** The chunk at `url`, or the error of its last try. `load` is the `import()` call (a test may pass its own). */
export async function importChunk<T>(url: string, load: (url: string) => Promise<unknown> = (u) => import(/* @vite-ignore */ u)): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt <= CHUNK_RETRY_DELAYS_MS.length; attempt++) {
    if (attempt > 0) await new Promise((done) => setTimeout(done, CHUNK_RETRY_DELAYS_MS[attempt - 1]));
    try {
      return (await load(attempt === 0 ? url : retryUrl(url, attempt))) as T;
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}

/** `url` with the retry marker in its query (kept apart from the hash; relative URLs stay relative). */
function retryUrl(url: string, attempt: number): string {
  const hash = url.indexOf('#');
  const base = hash < 0 ? url : url.slice(0, hash);
  return `${base}${base.includes('?') ? '&' : '?'}waymark_retry=${attempt}${hash < 0 ? '' : url.slice(hash)}`;
}
