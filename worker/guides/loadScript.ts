/**
 * Issue #34: runs a script in this worker without holding it while the script travels. importScripts alone fetches
 * synchronously: a render chunk asked for beside guide.json held guide.json's answer up by its whole load (50-70 ms
 * measured in the bench, the server busy with the page's requests). So the script is fetched first, and only its run
 * is synchronous, from a blob: URL of what came.
 *
 * Where that cannot be (the script's server without CORS, a policy refusing connect or blob: scripts), it is
 * importScripts of the URL itself, as before. A blob: run that fails after the script assigned what it is for is not
 * run again.
 */
/** A dedicated worker's own (the test project types this file without the WebWorker library). */
declare function importScripts(...urls: string[]): void;

export async function loadScript(url: string, ran: () => boolean): Promise<void> {
  let text: string | undefined;
  try {
    const response = await fetch(url);
    if (response.ok) text = await response.text();
  } catch {
    // importScripts below says why it cannot load, if it cannot.
  }
  if (text !== undefined) {
    const blobUrl = URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
    try {
      importScripts(blobUrl);
      return;
    } catch (error) {
      if (ran()) throw error;
    } finally {
      URL.revokeObjectURL(blobUrl);
    }
  }
  importScripts(url);
}
