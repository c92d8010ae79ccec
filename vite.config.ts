/**
 * One Vite config, one build target per mode (scripts/build.mjs runs them in turn):
 * - shim:    dist/agent/waymark.js          classic script (IIFE), the only file a host loads up front
 * - staging: dist/agent/waymark.staging.js  the same, not minified: what the snippet loads on staging hosts
 * - worker:  dist/agent/waymark.worker.js   classic worker script: started from the agent's origin, the
 *                                           host's copy (`workerUrl`), or a blob: that imports it
 * - inpage:  dist/agent/waymark.inpage.js   ES module: the same worker code on the page's main thread, the
 *                                           last install mode (shim/startWorker.ts)
 * - overlay: dist/agent/waymark.overlay.js  ES module with React, imported lazily by the shim
 * - privacy: dist/agent/waymark.privacy.js  ES module: URL transforms and privacy filter, imported by the
 *                                           shim only when those options are set
 * - guides:  dist/agent/waymark.guides.js   ES module: the guide loop and guide API, imported by the shim at
 *                                           start when guides are on (the overlay comes later, with a guide)
 * - frames:  dist/agent/waymark.frames.js   ES module: frame registry, leader election, installs into child
 *                                           iframes; imported in a child frame, or once the page has an iframe
 * - author:  dist/agent/waymark.author.js   ES module with React: the designer, its launch modal and the
 *                                           preview bar (issue #15), imported by the guides chunk for authors only
 * - tools:   dist/agent/waymark.tools.js    ES module: integrator tools (issue #17: install validation, checks,
 *                                           debugging, the debugger), imported by the shim on the first call
 * - forms:   dist/agent/waymark.forms.js    ES module: form validation (analytics §2), imported by the guides
 *                                           chunk when the app's settings name fields to validate
 * - record:  dist/agent/waymark.record.js   ES module: session recording's page side (rrweb, issue #18), imported
 *                                           by the guides chunk when the worker says this session records
 * - steps:   dist/agent/waymark.steps.js    ES module: a step painted from the worker's nodes without React (issue
 *                                           #34); it loads the React overlay for everything else
 * - render:  dist/agent/waymark.render.js   classic script for the worker (importScripts): the overlay's surfaces
 *                                           on staticReact render a step to nodes (StepToShow.painted, issue #34)
 * - esm:     dist/esm/waymark.js            the npm entry (`import { initialize } from 'waymark'`), with the
 *                                           files above beside it for the host's bundler to emit
 * - react:   dist/react/waymark-react.js    `waymark/react`: provider and hooks; React and `waymark` external
 * (scripts/build.mjs then writes the public API's declarations to dist/types with tsc.)
 * - demo:    dist/demo/                     the demo host app served by the reference server
 * - console: dist/console/                  the console (issue #14), served by the reference server at /console/
 */
import { resolve } from 'node:path';
import { defineConfig, type Plugin, type UserConfig } from 'vite';

const root = import.meta.dirname;
const assetVersion = process.env.WAYMARK_ASSET_VERSION;
/**
 * What every build defines: production React, and the build's version of the agent's files, which waymark.js (and
 * its staging copy) ask for as `?v=` (shim/loadChunk.ts). scripts/build.mjs computes it from those files, built
 * before the snippet's script, and passes it in WAYMARK_ASSET_VERSION; '' where a build has none.
 */
const production = {
  'process.env.NODE_ENV': JSON.stringify('production'),
  __WAYMARK_ASSET_QUERY__: JSON.stringify(assetVersion ? `?v=${assetVersion}` : ''),
};

/**
 * V8's explicit compile hint (https://v8.dev/blog/explicit-compile-hints), the file's first line: every function
 * of the file is compiled as the script is streamed, on a background thread, instead of lazily on the main
 * thread when it is first called. For the files a page runs at its start (the shim, the guides chunk): nearly
 * all of their functions run then. `npm run bench:startup` with BENCH_BEFORE: 0.67x and 0.85x of the main-thread
 * script time without it (2026-11-26, two runs of 15 and 9 rounds).
 */
const COMPILE_ALL_ON_LOAD = '//# allFunctionsCalledOnLoad';

function library(entry: string, outDir: string, fileName: string, format: 'es' | 'iife', postBanner?: string): UserConfig {
  return {
    define: production,
    publicDir: false,
    build: {
      outDir: resolve(root, outDir),
      emptyOutDir: false,
      target: 'es2020',
      minify: true,
      sourcemap: true,
      reportCompressedSize: false,
      lib: { entry: resolve(root, entry), formats: [format], fileName: () => fileName, name: 'waymarkAgent' },
      // Vite keeps whitespace in ES library output; these files are served to browsers as they are.
      rolldownOptions: { output: { minify: true, postBanner } },
    },
  };
}

/**
 * The npm entry's `new URL('./waymark.worker.js', import.meta.url)` references (shim/esm.ts) are for the
 * host's bundler, which emits those files into the host's build. Our own build skips them (they carry
 * `@vite-ignore`, else it would inline each file as a data: URL); this takes the marker out of the output so
 * the host's bundler sees the plain pattern. The output keeps every column but the removed comment's, so the
 * source map stays good enough (`map: null`).
 */
function handFilesToHostBundler(): Plugin {
  return {
    name: 'waymark:hand-files-to-host-bundler',
    renderChunk: (code) => ({ code: code.replace(/new URL\(\s*\/\* @vite-ignore \*\/\s*/g, 'new URL('), map: null }),
  };
}

/**
 * An ES module for npm hosts, whose own bundler minifies: kept readable, dependencies bundled except
 * `external` (the React integration shares the host's React and the one agent of `waymark`).
 */
function npmModule(entry: string, outDir: string, fileName: string, external: string[], plugins: Plugin[] = []): UserConfig {
  const config = library(entry, outDir, fileName, 'es');
  return {
    ...config,
    plugins,
    build: { ...config.build, minify: false, rolldownOptions: { external, output: { minify: false } } },
  };
}

/**
 * analytics §1 "A staging or unminified agent script is loaded when the host matches configured staging servers":
 * the same initial script, not minified (readable stack traces and breakpoints on a staging host). The snippet
 * loads it in place of waymark.js on the hosts its staging list names; the chunks it loads are the usual ones.
 */
function unminified(config: UserConfig): UserConfig {
  const output = { ...(config.build?.rolldownOptions?.output as object), minify: false };
  return { ...config, build: { ...config.build, minify: false, rolldownOptions: { output } } };
}

/**
 * The render chunk (issue #34): the step surfaces' imports of React are staticReact's (overlay/render), which renders
 * them once to nodes in the worker; React itself is never in it, nor floating-ui, which only effects call.
 */
function renderChunk(config: UserConfig): UserConfig {
  const alias = [
    { find: /^react(\/jsx-runtime|\/jsx-dev-runtime)?$/, replacement: resolve(root, 'overlay/render/staticReact.ts') },
    { find: /^@floating-ui\/dom$/, replacement: resolve(root, 'overlay/render/noPlacement.ts') },
  ];
  return { ...config, resolve: { alias } };
}

const targets: Record<string, UserConfig> = {
  shim: library('shim/global.ts', 'dist/agent', 'waymark.js', 'iife', COMPILE_ALL_ON_LOAD),
  staging: unminified(library('shim/global.ts', 'dist/agent', 'waymark.staging.js', 'iife', COMPILE_ALL_ON_LOAD)),
  worker: library('worker/main.ts', 'dist/agent', 'waymark.worker.js', 'iife'),
  inpage: library('worker/inPage.ts', 'dist/agent', 'waymark.inpage.js', 'es'),
  overlay: library('overlay/index.tsx', 'dist/agent', 'waymark.overlay.js', 'es'),
  privacy: library('shim/privacy.ts', 'dist/agent', 'waymark.privacy.js', 'es'),
  prompts: library('shim/prompts.ts', 'dist/agent', 'waymark.prompts.js', 'es'),
  guides: library('shim/createGuideDisplay.ts', 'dist/agent', 'waymark.guides.js', 'es', COMPILE_ALL_ON_LOAD),
  frames: library('shim/startFrames.ts', 'dist/agent', 'waymark.frames.js', 'es'),
  author: library('overlay/author/index.tsx', 'dist/agent', 'waymark.author.js', 'es'),
  tools: library('shim/tools/index.ts', 'dist/agent', 'waymark.tools.js', 'es'),
  forms: library('shim/forms/index.ts', 'dist/agent', 'waymark.forms.js', 'es'),
  record: library('shim/recording/index.ts', 'dist/agent', 'waymark.record.js', 'es'),
  steps: library('overlay/static/index.ts', 'dist/agent', 'waymark.steps.js', 'es'),
  render: renderChunk(library('overlay/render/index.ts', 'dist/agent', 'waymark.render.js', 'iife')),
  esm: npmModule('shim/esm.ts', 'dist/esm', 'waymark.js', [], [handFilesToHostBundler()]),
  react: npmModule('react/index.ts', 'dist/react', 'waymark-react.js', ['react', 'react/jsx-runtime', 'waymark']),
  demo: {
    root: resolve(root, 'server/demo'),
    base: '/',
    publicDir: false,
    build: { outDir: resolve(root, 'dist/demo'), emptyOutDir: true, reportCompressedSize: false },
  },
  console: {
    root: resolve(root, 'console'),
    base: '/console/',
    publicDir: false,
    define: production,
    build: {
      outDir: resolve(root, 'dist/console'),
      emptyOutDir: true,
      reportCompressedSize: false,
      sourcemap: true,
      // react-router and react-query mark their modules "use client" for server-component bundlers; the console is a
      // client-only app, so the bundler's 32 warnings that it drops the directive say nothing to whoever runs npm start.
      rolldownOptions: {
        onwarn(warning, warn) {
          if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
        },
      },
    },
  },
};

export default defineConfig(({ mode }) => {
  const target = targets[mode];
  if (!target) throw new Error(`unknown build mode '${mode}': one of ${Object.keys(targets).join(', ')}`);
  return target;
});
