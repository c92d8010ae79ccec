/**
 * Designer plugins (guides §5 "loading modules is limited to an allow-listed set of designer plugin paths", §8
 * 'Invalid module URL'; docs/designer.md "Plugins"): the allow-list, the token's plugin list, the step templates
 * a plugin adds, and the loader's refusals.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pluginModuleUrl } from '../../shared/authoring/designerPlugins';
import { encodeDesignerToken, MAX_DESIGNER_PLUGINS, readDesignerToken } from '../../shared/authoring/designerLaunch';
import { invalidModuleUrl } from '../../shared/messageTexts';
import { loadDesignerPlugins } from '../../overlay/author/designer/loadDesignerPlugins';
import { readStepTemplate, stepFromTemplate } from '../../overlay/author/designer/stepTemplates';

const SERVER = 'https://cdn.example.com';

describe('pluginModuleUrl: only files under /data/designer-plugins/ of the agent server', () => {
  it.each([
    ['/data/designer-plugins/release-notes.js', 'https://cdn.example.com/data/designer-plugins/release-notes.js'],
    ['https://cdn.example.com/data/designer-plugins/a1.js', 'https://cdn.example.com/data/designer-plugins/a1.js'],
    ['HTTPS://CDN.example.com/data/designer-plugins/a1.js', 'https://cdn.example.com/data/designer-plugins/a1.js'],
  ])('accepts %s', (raw, url) => expect(pluginModuleUrl(raw, SERVER)).toBe(url));

  it.each([
    ['another origin', 'https://evil.example/data/designer-plugins/a.js'],
    ['a protocol-relative URL', '//evil.example/data/designer-plugins/a.js'],
    ['credentials before the host', 'https://cdn.example.com@evil.example/data/designer-plugins/a.js'],
    ['another scheme', 'http://cdn.example.com/data/designer-plugins/a.js'],
    ['a dot segment', '/data/designer-plugins/../guide.json'],
    ['an escaped dot segment', '/data/designer-plugins/%2e%2e/x.js'],
    ['a subfolder', '/data/designer-plugins/a/b.js'],
    ['a query', '/data/designer-plugins/a.js?x=1'],
    ['a hash', '/data/designer-plugins/a.js#x'],
    ['another folder', '/data/guide-assets/global.js'],
    ['a relative path', 'data/designer-plugins/a.js'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/javascript,alert(1)'],
    ['upper case', '/data/designer-plugins/A.js'],
    ['not text', 42],
  ])('refuses %s', (_what, raw) => expect(pluginModuleUrl(raw, SERVER)).toBeNull());
});

describe('a designer token names plugins', () => {
  const defaults = { serverUrl: SERVER, crossOriginIsolated: false };
  it('keeps a list of strings, at most MAX_DESIGNER_PLUGINS', () => {
    const names = Array.from({ length: 12 }, (_, i) => `/data/designer-plugins/p${i}.js`);
    const { token, logs } = readDesignerToken(encodeDesignerToken({ plugins: names }), defaults);
    expect(logs).toEqual([]);
    expect(token?.plugins).toEqual(names.slice(0, MAX_DESIGNER_PLUGINS));
  });
  it('logs and drops a list that is not one of strings', () => {
    const { token, logs } = readDesignerToken(encodeDesignerToken({ plugins: [1] as unknown as string[] }), defaults);
    expect(token?.plugins).toBeUndefined();
    expect(logs).toEqual(['invalid designer plugins in the token: a list of module paths expected']);
  });
});

describe('step templates', () => {
  it('takes the designer step fields and refuses the rest with a reason', () => {
    const template = readStepTemplate(
      { name: ' Release note ', step: { type: 'lightbox', title: 'New', body: 'b', width: 500.4, buttons: [{ label: 'Go', action: 'link', url: 'https://x.example' }], onclick: 'alert(1)' } },
      'notes.js',
    );
    expect(template).toEqual({ name: 'Release note', plugin: 'notes.js', step: { type: 'lightbox', title: 'New', body: 'b', width: 500, buttons: [{ label: 'Go', action: 'link', url: 'https://x.example' }] } });
    expect(readStepTemplate({ name: 'x', step: { type: 'popup' } }, 'p.js')).toMatch(/unknown step type "popup"/);
    expect(readStepTemplate({ name: 'x', step: { buttons: [{ label: 'Go', action: 'link', url: 'javascript:alert(1)' }] } }, 'p.js')).toMatch(/a link needs an http\(s\) url/);
    expect(readStepTemplate({ name: 'x', step: { imageUrl: 'javascript:x' } }, 'p.js')).toMatch(/imageUrl must be an http\(s\) address/);
    expect(readStepTemplate({ name: '', step: {} }, 'p.js')).toMatch(/needs a name/);
    expect(readStepTemplate('x', 'p.js')).toMatch(/must be an object/);
  });
  it('makes a new step: the type defaults, then the template', () => {
    const template = readStepTemplate({ name: 'T', step: { type: 'banner', title: 'Hi', buttons: [{ label: 'OK', action: 'dismiss' }] } }, 'p.js');
    if (typeof template === 'string') throw new Error(template);
    const step = stepFromTemplate(template, 'guide-1', 2, () => 0);
    expect(step).toMatchObject({ id: 'guide-1-aaaaaaaa', type: 'banner', title: 'Hi', width: 0, buttons: [{ label: 'OK', action: 'dismiss' }], body: 'Tell your visitors what this does.' });
    // The template's buttons are copied: editing the step leaves the template as it was.
    expect(step.buttons[0]).not.toBe(template.step.buttons![0]);
  });
});

describe('loadDesignerPlugins', () => {
  afterEach(() => vi.unstubAllGlobals());

  function listing(plugins: unknown, status = 200) {
    const fetch = vi.fn(async (_url: URL | string) => new Response(JSON.stringify({ plugins }), { status }));
    vi.stubGlobal('fetch', fetch);
    return fetch;
  }

  it("loads the server's list and the token's, refusing an off-list URL with 'Invalid module URL' before any fetch", async () => {
    const fetch = listing(['/data/designer-plugins/a.js']);
    const logs: string[] = [];
    const load = vi.fn(async (url: string) => ({
      default(api: { addStepTemplate(t: unknown): void }) {
        api.addStepTemplate({ name: `from ${url.slice(url.lastIndexOf('/') + 1)}`, step: { title: 'x' } });
        api.addStepTemplate({ name: 'broken', step: { type: 'popup' } });
      },
    }));
    const templates = await loadDesignerPlugins({
      serverUrl: SERVER,
      named: ['https://evil.example/x.js', '/data/designer-plugins/b.js', '/data/designer-plugins/a.js'],
      log: (level, message) => logs.push(`${level}: ${message}`),
      load,
    });
    expect(String(fetch.mock.calls[0]![0])).toBe(`${SERVER}/data/designer-plugins.json`);
    expect(load.mock.calls.map((c) => c[0])).toEqual([`${SERVER}/data/designer-plugins/a.js`, `${SERVER}/data/designer-plugins/b.js`]);
    expect(templates.map((t) => t.name)).toEqual(['from a.js', 'from b.js']);
    expect(logs.filter((l) => l.includes(invalidModuleUrl))).toEqual([
      `error: ${invalidModuleUrl}: "https://evil.example/x.js" (designer plugins load only from ${SERVER}/data/designer-plugins/)`,
    ]);
    expect(logs).toContain('warn: designer plugin a.js: step template "broken": unknown step type "popup" (tooltip, lightbox, mobile-lightbox, banner, whatsnew)');
  });

  it('a plugin that throws or exports no function costs only itself; a list that fails to load is said', async () => {
    listing(null, 500);
    const logs: string[] = [];
    const templates = await loadDesignerPlugins({
      serverUrl: SERVER,
      named: ['/data/designer-plugins/throws.js', '/data/designer-plugins/nothing.js', '/data/designer-plugins/ok.js'],
      log: (level, message) => logs.push(`${level}: ${message}`),
      load: async (url) => {
        if (url.endsWith('throws.js')) throw new Error('boom');
        if (url.endsWith('nothing.js')) return {};
        return { default: (api: { addStepTemplate(t: unknown): void }) => api.addStepTemplate({ name: 'ok', step: {} }) };
      },
    });
    expect(templates.map((t) => t.name)).toEqual(['ok']);
    expect(logs).toEqual([
      'warn: designer plugins: the list at /data/designer-plugins.json did not load (HTTP 500)',
      'error: designer plugin throws.js failed: boom',
      'error: designer plugin nothing.js failed: its default export is not a function',
    ]);
  });
});
