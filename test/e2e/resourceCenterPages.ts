/**
 * Pages and guides of the resource center e2e tests (guides §2, §3 attributes.resourceCenter): each test writes
 * a resource center of its own into the server's guide folder (WAYMARK_GUIDES_DIR), on a path of its own.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { hostPage } from './fixtures';

export const badge = '[data-waymark-overlay] .wm-rc-badge';
export const bubble = `${badge} .wm-rc-bubble`;
export const panel = '[data-waymark-overlay] .wm-rc';
export const lightbox = '[data-waymark-overlay] .wm-lightbox';

export type Json = Record<string, unknown>;
const written: string[] = [];
/** Removes the guide files `write` wrote: each spec file calls it after each test. */
export function removeWrittenGuides(): void {
  for (const file of written.splice(0)) rmSync(file, { force: true });
}

export function write(guides: Json[]): void {
  const dir = process.env.WAYMARK_GUIDES_DIR;
  if (!dir) throw new Error('WAYMARK_GUIDES_DIR is not set: the e2e global setup did not run');
  for (const g of guides) {
    const file = join(dir, `${g.id as string}.json`);
    writeFileSync(file, JSON.stringify(g));
    written.push(file);
  }
}

export const content = (title: string, extra: Json[] = []): Json => ({ type: 'div', props: {}, children: [{ type: 'h2', props: {}, content: title }, ...extra] });
export const action = (label: string, name: string): Json => ({ type: 'button', props: {}, content: label, actions: [{ action: name, eventType: 'click', parameters: [] }] });

/**
 * A resource center of its own for one test: the top-level guide `uid`, its modules and the guides they list,
 * all on /e2e/rc/{uid} only. `modules` name the kinds in children order.
 */
export function resourceCenter(
  uid: string,
  modules: Array<'guideList' | 'onboarding' | 'announcements' | 'missing' | 'intercom' | 'iframe' | 'custom'>,
  rc: Json = {},
  frameUrl = '',
  top: { guide?: Json; step?: Json } = {},
): string {
  const rule = `/e2e/rc/${uid}(?:[?#].*)?$`;
  const guide = (id: string, name: string, steps: Json[], extra: Json = {}): Json => ({
    id,
    name,
    launchMethod: 'api',
    steps: steps.map((s, i) => ({ id: `${id}-${i + 1}`, guideId: id, type: 'lightbox', regexUrlRule: rule, ...s })),
    ...extra,
  });
  const mod = (id: string, name: string, moduleId: string, extra: Json = {}) => guide(id, name, [{ domJson: content(name) }], { attributes: { resourceCenter: { isModule: true, moduleId, ...extra } } });
  const guides: Json[] = [];
  const children: string[] = [];
  for (const kind of modules) {
    const id = `${uid}-${kind}`;
    children.push(id);
    if (kind === 'guideList') {
      guides.push(mod(id, 'Guides', 'guideList', { children: [`${uid}-export`, `${uid}-report`] }));
      guides.push(guide(`${uid}-export`, 'Export to CSV', [{ domJson: content('Download as a spreadsheet', [action('Got it', 'dismissGuide')]) }]));
      guides.push(guide(`${uid}-report`, 'Build a report', [{ domJson: content('Pick a chart', [action('Got it', 'dismissGuide')]) }]));
    } else if (kind === 'onboarding') {
      guides.push(mod(id, 'Getting started', 'onboarding', { children: [`${uid}-tour-a`, `${uid}-tour-b`] }));
      guides.push(guide(`${uid}-tour-a`, 'Tour A', [{ domJson: content('Tour A only step', [action('Done', 'advanceGuide')]) }], { attributes: { isOnboarding: true } }));
      guides.push(
        guide(`${uid}-tour-b`, 'Tour B', [{ domJson: content('Tour B one', [action('Next', 'advanceGuide')]) }, { domJson: content('Tour B two', [action('Done', 'advanceGuide')]) }], {
          isMultiStep: true,
          attributes: { isOnboarding: true },
        }),
      );
    } else if (kind === 'announcements') {
      guides.push(mod(id, "What's new", 'announcements', { children: [1, 2, 3].map((n) => `${uid}-news-${n}`) }));
      for (const n of [1, 2, 3]) {
        // Tall items: the third is out of view until the list is scrolled.
        const body = { type: 'p', props: { style: 'height: 220px; margin: 0' }, content: `Announcement ${n} body` };
        guides.push(guide(`${uid}-news-${n}`, `News ${n}`, [{ type: 'whatsnew', domJson: content(`News ${n}`, [body]) }]));
      }
    } else if (kind === 'iframe') {
      guides.push(guide(id, 'Help articles', [{ contentUrl: frameUrl, domJson: content('Help articles') }], { attributes: { resourceCenter: { isModule: true, moduleId: 'iframe' } } }));
    } else if (kind === 'custom') {
      // Guide text that looks like markup, and a script block: text stays text, the script never runs.
      const body = [
        { type: 'p', props: {}, content: '<img src=x onerror="window.pwned = 1">' },
        { type: 'script', props: {}, content: 'window.pwned = 2' },
      ];
      guides.push(guide(id, 'Contact us', [{ domJson: content('Write to support@acme.example', body) }], { attributes: { resourceCenter: { isModule: true, moduleId: 'custom' } } }));
    } else if (kind === 'intercom') {
      guides.push(mod(id, 'Chat with us', 'integration', { integrationProvider: 'intercom', integrationName: 'chat' }));
    }
  }
  const topGuide = top.guide ?? {};
  guides.unshift(
    guide(uid, 'Help', [{ domJson: content('Help'), ...top.step }], {
      launchMethod: 'badge',
      ...topGuide,
      attributes: { ...(topGuide.attributes as Json | undefined), resourceCenter: { isTopLevel: true, children, ...rc } },
    }),
  );
  write(guides);
  return `/e2e/rc/${uid}`;
}

export function rcPage(apiKey: string, visitor: string, { lang = 'en', head = '' } = {}): string {
  return hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' } });`, head, body: '<h1>Resource center host</h1>' }).replace('<html>', `<html lang="${lang}">`);
}

export async function box(page: Page, selector: string) {
  const b = await page.locator(selector).boundingBox();
  if (!b) throw new Error(`${selector} has no box`);
  return { x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height) };
}

export async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  // Past the 200 ms slide of the view.
  await page.waitForTimeout(300);
  const path = testInfo.outputPath(name);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}
