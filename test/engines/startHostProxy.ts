/**
 * Host pages of the e2e specs for engines Playwright does not drive (issue #32). The e2e specs serve a test page
 * on the reference server's origin with a Playwright route; puppeteer's BiDi Firefox and WebDriver's WebKitGTK have
 * no such route here, so a loopback server of the test's own answers the pages a journey serves at their paths and
 * passes every other request through to the reference server, unchanged. The page, the agent's scripts, its
 * worker, guide.json and the beacons then share one origin, as they do on the server's own origin.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostProxy {
  /** The origin the pages are served on (http://127.0.0.1:{port}). */
  origin: string;
  /** Serves `html` at `path` (a path alone, the query is ignored) from now on. */
  serve(path: string, html: string): void;
  /** The paths (with their query) of the requests passed through to the server so far, in order. */
  passed: string[];
  close(): Promise<void>;
}

/** A loopback server in front of `serverUrl` that answers the paths given to `serve` with their pages. */
export async function startHostProxy(serverUrl: string): Promise<HostProxy> {
  const upstream = new URL(serverUrl);
  const pages = new Map<string, string>();
  const passed: string[] = [];
  const server = createServer((req, res) => {
    const html = pages.get(new URL(req.url ?? '/', 'http://host').pathname);
    if (html !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
      return;
    }
    passed.push(req.url ?? '/');
    const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    serve: (path, html) => void pages.set(path, html),
    passed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
