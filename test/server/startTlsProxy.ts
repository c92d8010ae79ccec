/**
 * A real TLS-terminating reverse proxy for the tests (issue #31): Debian's nginx (installed by scripts/setup.sh) in
 * the foreground, one process (`master_process off`, so no worker runs as `nobody` and a kill leaves nothing
 * behind), with a throwaway self-signed certificate and its config, logs, pid and temp folders in one temporary
 * folder. It listens on https://127.0.0.1:{free port} and sends each request to the next of `upstreams`
 * (round-robin, never retried on another), telling it the scheme, host and client address as X-Forwarded-*.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from './startPostgres';

/** A running proxy. */
export interface TlsProxy {
  /** `https://localhost:{port}`: what a browser at the proxy has as its origin. */
  origin: string;
  port: number;
  /** The nginx config it runs, for a reader of a failing test. */
  config: string;
  /** Stops nginx (bounded wait) and removes its folder. */
  stop(): Promise<void>;
}

/** Response header naming the upstream that answered (nginx's `$upstream_addr`). */
export const UPSTREAM_HEADER = 'x-waymark-upstream';

/** nginx on PATH or in the sbin folders Debian puts it in, or undefined. */
export function findNginx(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  return dirs.filter(Boolean).map((dir) => join(dir, 'nginx')).find((file) => existsSync(file));
}

/** The nginx config of a proxy on `port` in `dir` to `upstreams` (`host:port` each). */
export function tlsProxyConfig(dir: string, port: number, upstreams: readonly string[]): string {
  return `# Test proxy of issue #31 (test/server/startTlsProxy.ts).
daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream waymark_collectors {
${upstreams.map((upstream) => `    server ${upstream};`).join('\n')}
  }
  server {
    listen 127.0.0.1:${port} ssl;
    server_name localhost;
    ssl_certificate ${dir}/cert.pem;
    ssl_certificate_key ${dir}/key.pem;
    location / {
      proxy_pass http://waymark_collectors;
      # One collector per request: a refused request is not tried again on the other.
      proxy_next_upstream off;
      # Host stays nginx's default (the upstream's name): the collectors know the browser's host from these only.
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      add_header X-Waymark-Upstream $upstream_addr always;
    }
  }
}
`;
}

/** Starts the proxy; throws with what to install when nginx or openssl is missing, or with nginx's log. */
export async function startTlsProxy(upstreams: readonly string[]): Promise<TlsProxy> {
  const nginx = findNginx();
  if (!nginx) throw new Error("nginx is not installed: run `bash scripts/setup.sh` (it installs Debian's nginx)");
  const dir = mkdtempSync(join(tmpdir(), 'waymark-proxy-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const certificate = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
    { encoding: 'utf8', timeout: 30_000 },
  );
  if (certificate.status !== 0) {
    remove();
    throw new Error(`openssl did not make the test certificate (run \`bash scripts/setup.sh\`): ${certificate.error?.message ?? certificate.stderr}`);
  }
  const port = await freePort();
  const config = tlsProxyConfig(dir, port, upstreams);
  writeFileSync(join(dir, 'nginx.conf'), config);
  // -e: the start-up error log too stays in the folder (Debian's default is stderr, then /var/log/nginx).
  const child = spawn(nginx, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const log = () => `${stderr}${existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : ''}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    remove();
  };
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) {
      const text = log();
      remove();
      throw new Error(`nginx exited: ${text}`);
    }
    if (await answersHttps(port)) return { origin: `https://localhost:${port}`, port, config, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const text = log();
  await stop();
  throw new Error(`nginx did not answer within 10 s: ${text}`);
}

/** Whether something on 127.0.0.1:`port` completes a TLS handshake and answers an HTTP request. */
function answersHttps(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/health', rejectUnauthorized: false, agent: false, timeout: 1_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(true));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}
