/**
 * Guide actions and surfaces against the real reference server: automations, conditional split, polls and NPS,
 * the banner, badges, and the guide loop's 50 ms cut (guides §2, §4, §5). Guides are test/e2e/guides/*.json.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentReady, expect, hostPage, storedEvents, test, uniqueId, waitForEvents } from './fixtures';

const lightbox = '[data-waymark-overlay] .wm-lightbox';

test.describe('guides §4 automations and conditional split', () => {
  test('autofill types into the host field, a conditional split runs the case whose element exists, autoclick clicks after 500 ms', async ({ page, openHostPage, consoleLines }) => {
    await openHostPage(
      '/e2e/automate',
      hostPage({
        init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${uniqueId('automate')}' } });`,
        body: `<input id="name"> <span id="present"></span>
          <button id="go" onclick="window.went = (window.went || 0) + 1">Go</button>
          <script>document.getElementById('name').addEventListener('input', () => (window.typed = document.getElementById('name').value));</script>`,
      }),
    );
    const box = page.locator(lightbox);
    await expect(box).toContainText('Let me do it');
    await box.getByRole('button', { name: 'Fill' }).click();
    await expect(page.locator('#name')).toHaveValue('Ada Lovelace');
    expect(await page.evaluate(() => (window as any).typed)).toBe('Ada Lovelace');
    await box.getByRole('button', { name: 'None' }).click();
    await expect.poll(() => consoleLines.some((l) => l.includes('conditional split: no case matched'))).toBe(true);
    await box.getByRole('button', { name: 'Branch' }).click();
    await expect.poll(() => page.evaluate(() => (window as any).went)).toBe(1);
    await expect(box).toContainText('Let me do it'); // the #missing case (dismiss) did not run
    await box.getByRole('button', { name: 'Ghost' }).click();
    await expect.poll(() => consoleLines.some((l) => l.includes('automation click-ghost skipped: target not found')), { timeout: 6000 }).toBe(true);
  });
});

test.describe('guides §2, §5 polls and NPS', () => {
  test('an NPS rating and a free-form answer are stored as pollResponse events from the poll beacon, then the thank-you shows', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('nps');
    const pollBeacons: string[] = [];
    page.on('request', (r) => r.url().includes('/data/poll.gif/') && pollBeacons.push(r.url()));
    await openHostPage('/e2e/nps', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });` }));
    const box = page.locator(lightbox);
    await expect(box).toContainText('How likely are you to recommend us?');
    await box.getByRole('radio', { name: '9' }).check();
    await box.getByPlaceholder('Tell us more').fill('Fast and friendly');
    await box.getByRole('button', { name: 'Submit' }).click();
    await expect(box.getByRole('status')).toHaveText('Thanks, that helps!');
    await page.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor }, (e) => e.filter((x) => x.type === 'pollResponse').length === 2);
    const responses = events.filter((e) => e.type === 'pollResponse').map((e) => e.props);
    expect(responses).toEqual(expect.arrayContaining([
      expect.objectContaining({ guide_id: 'e2e-nps', poll_id: 'nps-1', poll_response: 9, poll_type: 'NPSRating' }),
      expect.objectContaining({ guide_id: 'e2e-nps', poll_id: 'why-1', poll_response: 'Fast and friendly', poll_type: 'FreeForm' }),
    ]));
    expect(responses.every((p) => typeof p.duration === 'number')).toBe(true);
    expect(pollBeacons.length).toBeGreaterThan(0);
    // Answered, the guide is complete: the next page does not ask again, though the thank-you was never closed.
    const advanced = await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor }, (e) => e.some((x) => x.type === 'guideAdvanced'));
    expect(advanced.filter((e) => e.type.startsWith('guide')).map((e) => e.type)).not.toContain('guideDismissed');
    await page.reload();
    await agentReady(page);
    await expect.poll(() => page.evaluate(async () => (await (window as any).waymark.debugGuides()).guides.find((g: { id: string }) => g.id === 'e2e-nps')?.completion)).toBe('complete');
    await expect(box).toHaveCount(0);
  });

  test('closing the thank-you of an answered poll takes it off the page without a dismissal', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('nps-close');
    await openHostPage('/e2e/nps', hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });` }));
    const box = page.locator(lightbox);
    await box.getByRole('radio', { name: '3' }).check();
    await box.getByRole('button', { name: 'Submit' }).click();
    await expect(box.getByRole('status')).toBeVisible();
    await box.getByRole('button', { name: 'close' }).click();
    await expect(box).toHaveCount(0);
    await page.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor }, (e) => e.some((x) => x.type === 'guideAdvanced'));
    await page.waitForTimeout(700);
    await page.evaluate(() => (window as any).waymark.flushNow());
    const after = await storedEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor });
    expect(after.filter((e) => e.type.startsWith('guide') && e.props.guide_id === 'e2e-nps').map((e) => e.type)).toEqual(['guideSeen', 'guideAdvanced', 'guideActivity']);
    expect(events.length).toBeGreaterThan(0);
  });
});

test.describe('guides §2 banner', () => {
  test('a banner spans the top of the viewport without a backdrop, the page stays usable, and the close button dismisses it', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('banner');
    await openHostPage(
      '/e2e/banner',
      hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });`, body: '<button id="page-button" style="margin-top:300px" onclick="window.pressed = true">Page</button>' }),
    );
    const banner = page.locator('[data-waymark-overlay] .wm-banner');
    await expect(banner).toContainText('Scheduled maintenance on Sunday');
    await expect(banner).toHaveAttribute('role', 'region');
    const box = (await banner.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(box.y).toBe(0);
    expect(box.x).toBe(0);
    expect(box.width).toBe(viewport.width);
    await expect(page.locator('[data-waymark-overlay] .wm-backdrop')).toHaveCount(0);
    await page.click('#page-button');
    expect(await page.evaluate(() => (window as any).pressed)).toBe(true);
    await banner.getByRole('button', { name: 'close' }).click();
    await expect(banner).toHaveCount(0);
    await page.evaluate(() => (window as any).waymark.flushNow());
    await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor }, (e) => e.some((x) => x.type === 'guideDismissed' && x.props.guide_id === 'e2e-banner'));
  });
});

test.describe('guides §2 badges', () => {
  test('a badge sits on the top-right corner of its target, opens its guide (reason badge), and with isOnlyShowOnce is gone on the next page', async ({ page, serverUrl, openHostPage }) => {
    const visitor = uniqueId('badge');
    await openHostPage(
      '/e2e/badge',
      hostPage({
        init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${visitor}' } });`,
        body: '<div id="e2e-badge-target" style="margin:120px 0 0 200px;width:240px;height:60px;background:#eef">Revenue</div>',
      }),
    );
    const badge = page.locator('[data-waymark-overlay] .wm-badge');
    await expect(badge).toHaveAttribute('aria-label', 'Open guide: What is this?');
    const target = (await page.locator('#e2e-badge-target').boundingBox())!;
    await expect.poll(async () => {
      const b = (await badge.boundingBox())!;
      // Centred on the target's top-right corner.
      return [Math.round(b.x + b.width / 2 - (target.x + target.width)), Math.round(b.y + b.height / 2 - target.y)];
    }).toEqual([0, 0]);
    await badge.click();
    await expect(page.locator(lightbox)).toContainText('Revenue explained');
    await page.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey: 'e2e', visitorId: visitor }, (e) => e.some((x) => x.type === 'guideSeen'));
    expect(events.find((e) => e.type === 'guideSeen')!.props).toMatchObject({ guide_id: 'e2e-badge', reason: 'badge' });

    await page.reload();
    await agentReady(page);
    await page.waitForTimeout(1500);
    await expect(badge).toHaveCount(0);
  });
});

test.describe('guides §4 Guide loop: 50 ms per phase item', () => {
  test('with many waiting steps and a slow page, one tick checks a few and the next ticks go on where it stopped', async ({ page, openHostPage }) => {
    const dir = process.env.WAYMARK_GUIDES_DIR!;
    const uid = uniqueId('loop-cut');
    const files: string[] = [];
    // Six auto tooltips whose targets never appear: every tick looks for all of them.
    for (let n = 1; n <= 6; n++) {
      const id = `${uid}-${n}`;
      const file = join(dir, `${id}.json`);
      const step = { id: `${id}-1`, guideId: id, type: 'tooltip', elementPathRule: `#slow-${n}`, regexUrlRule: `/e2e/loop-cut/${uid}$`, domJson: { type: 'div', props: {}, children: [] } };
      writeFileSync(file, JSON.stringify({ id, name: `Waiting ${n}`, launchMethod: 'auto', steps: [step] }));
      files.push(file);
    }
    try {
      // The page makes each look-up of a #slow-N selector take 30 ms, and records which task made it: a task
      // is numbered at its first look-up and ends at its microtask checkpoint.
      const head = `<script>
        window.__lookups = [];
        let task = 0, current = 0;
        const query = Document.prototype.querySelector;
        Document.prototype.querySelector = function (selector) {
          if (typeof selector === 'string' && selector.startsWith('#slow-')) {
            if (!current) { current = ++task; queueMicrotask(() => { current = 0; }); }
            const until = performance.now() + 30;
            while (performance.now() < until) {}
            window.__lookups.push([current, selector]);
          }
          return query.call(this, selector);
        };
      </script>`;
      await openHostPage(`/e2e/loop-cut/${uid}`, hostPage({ init: `waymark.initialize({ apiKey: 'e2e', visitor: { id: '${uid}' } });`, head }));
      await expect.poll(() => page.evaluate(() => new Set((window as any).__lookups.map((l: [number, string]) => l[1])).size), { timeout: 10_000 }).toBe(6);
      const lookups: Array<[number, string]> = await page.evaluate(() => (window as any).__lookups);
      const perTask = new Map<number, number>();
      for (const [task] of lookups) perTask.set(task, (perTask.get(task) ?? 0) + 1);
      // 30 ms a look-up: the tick stops once 50 ms have gone by, after two or three look-ups, never all six.
      expect(Math.max(...perTask.values())).toBeLessThanOrEqual(3);
      expect(perTask.size).toBeGreaterThanOrEqual(2);
    } finally {
      for (const file of files) rmSync(file, { force: true });
    }
  });
});
