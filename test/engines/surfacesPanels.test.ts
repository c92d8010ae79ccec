/**
 * issue #32: the launcher and the resource center, in Firefox ESR (WebDriver BiDi) and WebKitGTK (WebDriver), with the
 * engine's own clicks and keys, against the reference server: each opened from its badge, its list, search typed
 * with real key events, a guide started from it, Escape. The journeys are those of launcher.spec.ts and
 * resourceCenter.spec.ts, with their guides (test/e2e/guides/e2e-launcher-*.json, resourceCenterPages.ts);
 * screenshots: test-results/engines/{engine}-{surface}.png.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { hostPage, uniqueId } from '../e2e/fixtures';
import { rcPage, resourceCenter } from '../e2e/resourceCenterPages';
import { describeSurfaces, initFor, showing, storedUntil } from './describeSurfaces';

/** A page script answering whether the resource center's view has finished its 200 ms slide (guides §9). */
const SLID = "return deepQuery('.wm-rc-view').getAnimations().every((a) => a.playState === 'finished')";

describeSurfaces((s) => {
  const { open, run, until, shot } = s;

  it('guides §2 the launcher: its badge opens the panel, search typed with real keys filters, a listed guide starts (reason launcher), Escape closes (launcher.spec.ts)', async () => {
    const apiKey = uniqueId('e2e-launcher');
    const visitor = uniqueId('engines-launcher');
    const config = join(process.env.WAYMARK_GUIDES_DIR!, `launcher.${apiKey}.json`);
    writeFileSync(config, JSON.stringify({ enabled: true, data: { launchType: 'badge', enableSearch: true, hideCredits: true } }));
    try {
      await open('/e2e/launcher', hostPage({ init: initFor(apiKey, visitor), body: '<h1>Launcher host</h1>' }));
      const badge = '.wm-launcher-badge';
      await until(`return !!deepQuery('${badge}')`);
      // A 48 px badge 20 px from the viewport's right and bottom edges.
      const viewport = await run<[number, number]>('return [document.documentElement.clientWidth, document.documentElement.clientHeight]');
      expect(await run(`return box('${badge}')`)).toEqual({ x: viewport[0] - 68, y: viewport[1] - 68, width: 48, height: 48 });
      await s.page.click(badge);
      await until("return deepQuery('.wm-launcher')?.querySelectorAll('.wm-item').length === 3");
      const items = "return texts('.wm-launcher', '.wm-item')";
      expect(await run(items)).toEqual(['Export to CSV', 'Onboarding basics', 'Build a report']);
      // Above the badge, its right edge on the badge's.
      const panel = await run<{ x: number; y: number; width: number; height: number }>("return box('.wm-launcher')");
      expect([panel.x + panel.width, panel.y + panel.height, panel.width, panel.height]).toEqual([viewport[0] - 20, viewport[1] - 80, 330, 349]);
      await shot('launcher');

      await s.page.type('.wm-launcher .wm-search', 'REPORT');
      await until("return deepQuery('.wm-launcher').querySelectorAll('.wm-item').length === 1");
      expect(await run(items)).toEqual(['Build a report']);
      // Escape inside the panel (focus is in its search box) closes it; the badge opens it again.
      await until("return deepQuery('.wm-launcher').contains(active())");
      await s.page.press('Escape');
      await until("return !deepQuery('.wm-launcher')");
      await s.page.click(badge);
      await s.page.click('.wm-launcher .wm-item[data-guide-id="e2e-launcher-report"]');
      await until(showing('.wm-lightbox', 'How to build a report'));
      expect(await run("return deepQuery('.wm-launcher') === null")).toBe(true);
      await run('window.waymark.flushNow()');
      const events = await storedUntil(apiKey, visitor, (e) => e.some((x) => x.type === 'guideSeen'));
      expect(events.filter((e) => e.type === 'guideSeen').map((e) => e.props)).toEqual([
        expect.objectContaining({ guide_id: 'e2e-launcher-report', guide_step_id: 'e2e-launcher-report-1', reason: 'launcher' }),
      ]);
    } finally {
      rmSync(config, { force: true });
    }
  });

  it('guides §2 the resource center: its badge opens the home view, a module opens and Back returns, Escape closes, search typed with real keys finds a guide that starts (resourceCenter.spec.ts)', async () => {
    const uid = uniqueId('rc-engines');
    const apiKey = uniqueId('e2e-rc');
    const visitor = uniqueId('engines-rc');
    await open(resourceCenter(uid, ['guideList', 'onboarding', 'announcements']), rcPage(apiKey, visitor));
    const badge = '.wm-rc-badge';
    await until(`return deepQuery('${badge} .wm-rc-bubble')?.textContent === '3'`);
    await s.page.click(badge);
    await until("return deepQuery('.wm-rc')?.querySelectorAll('[data-module-id]').length === 3");
    const modules = "return texts('.wm-rc', '[data-module-id]')";
    expect(await run(modules)).toEqual(['Guides', 'Getting started', "What's new 3 new"]);
    await until(SLID);
    await shot('resource-center');

    await s.page.click(`.wm-rc [data-module-id="${uid}-guideList"]`);
    await until(`return deepQuery('.wm-rc').getAttribute('data-active-module') === '${uid}-guideList'`);
    const items = "return texts('.wm-rc', '.wm-item')";
    expect(await run(items)).toEqual(['Export to CSV', 'Build a report']);
    await until(SLID);
    await shot('resource-center-module');
    await s.page.click('.wm-rc .wm-rc-back');
    await until("return deepQuery('.wm-rc').getAttribute('data-active-module') === ''");
    // The panel takes focus once its view changed (the Back button is gone), so that Escape inside it closes it.
    await until("return deepQuery('.wm-rc').contains(active())");
    await s.page.press('Escape');
    await until("return !deepQuery('.wm-rc')");

    await s.page.click(badge);
    await s.page.type('.wm-rc .wm-search', 'report');
    await until("return deepQuery('.wm-rc .wm-rc-count')?.textContent === '1 result'");
    expect(await run(items)).toEqual(['Build a report']);
    await shot('resource-center-search');
    await s.page.click(`.wm-rc .wm-item[data-guide-id="${uid}-report"]`);
    await until(showing('.wm-lightbox', 'Pick a chart'));
    await run('window.waymark.flushNow()');
    const events = await storedUntil(apiKey, visitor, (e) => e.some((x) => x.type === 'guideSeen'));
    expect(events.filter((e) => e.type === 'guideSeen').map((e) => e.props)).toEqual([expect.objectContaining({ guide_id: `${uid}-report`, reason: 'resourceCenter' })]);
  });
});
