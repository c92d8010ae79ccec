#!/usr/bin/env node
/**
 * `npx waymark-copy-agent <folder>` (issue #7): copies the built agent files into a host app's public
 * folder, so the host can serve the worker from its own origin and pass `workerUrl` to initialize
 * (browsers start dedicated workers only from same-origin URLs). Copies every dist/agent file; a host that
 * wants only the worker points `workerUrl` at `<folder>/waymark.worker.js`.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const source = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'agent');
const [target, ...extra] = process.argv.slice(2);

function fail(message) {
  console.error(`waymark-copy-agent: ${message}`);
  process.exit(1);
}

if (!target || extra.length || target.startsWith('-')) fail('usage: waymark-copy-agent <folder>  (for example public/waymark)');
if (!existsSync(join(source, 'waymark.worker.js'))) fail(`no built agent in ${source}: run \`npm run build\` first`);
if (existsSync(target) && !statSync(target).isDirectory()) fail(`${target} exists and is not a folder`);

mkdirSync(target, { recursive: true });
const files = readdirSync(source).filter((name) => statSync(join(source, name)).isFile());
for (const name of files) copyFileSync(join(source, name), join(target, name));
console.log(`waymark-copy-agent: ${files.length} files copied to ${resolve(target)}; initialize with workerUrl: '<its URL>/waymark.worker.js'`);
// Issue #16: on a cross-origin isolated page the worker starts only when its script says require-corp too.
console.log(
  'waymark-copy-agent: if your pages are cross-origin isolated (COOP same-origin + COEP require-corp), serve waymark.worker.js ' +
    "with the header 'Cross-Origin-Embedder-Policy: require-corp', or the agent runs on the main thread (it logs why)",
);
