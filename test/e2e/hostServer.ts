/**
 * A second origin for a host page in e2e tests: a plain HTTP server on another loopback port.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostFiles {
  [path: string]: { body: string; type: string; headers?: Record<string, string> };
}

/**
 * A second origin for the host page: a plain HTTP server on another loopback port serving `files` (every
 * other path is a 404). A real server, not a Playwright route: Chromium treats a routed document as
 * outside the loopback address space and then refuses its requests to the collector.
 */
export async function startHostServer(files: HostFiles): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://host').pathname;
    const file = files[path];
    if (!file && path === '/favicon.ico') {
      response.writeHead(204).end();
      return;
    }
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      return;
    }
    response.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store', ...file.headers }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

