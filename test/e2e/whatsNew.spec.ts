/**
 * The what's-new feed in the launcher (guides §2 "What's-new item: rendered inside the launcher. It becomes
 * active once scrolled into view (the top third visible)", §9 What's-new seen delay 1000 ms) and building-block
 * badges (guides §2 "Badges (image or building-block)"), in Chromium against the reference server. Each test
 * writes its own launcher config (`launcher.{apiKey}.json`, an api key of its own) and its own guides into
 * WAYMARK_GUIDES_DIR, on /e2e/whatsnew/{uid} only, and removes the guides afterwards.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { WHATSNEW_SEEN_DELAY_MS } from '../../shared/constants';
import { agentReady, expect, hostPage, test, uniqueId, waitForEvents } from './fixtures';

const badge = '[data-waymark-overlay] .wm-launcher-badge';
const bubble = `${badge} .wm-bubble`;
const panel = '[data-waymark-overlay] .wm-launcher';
const lightbox = '[data-waymark-overlay] .wm-lightbox';

type Json = Record<string, unknown>;
const written: string[] = [];
test.afterEach(() => {
  for (const file of written.splice(0)) rmSync(file, { force: true });
});

function dir(): string {
  const d = process.env.WAYMARK_GUIDES_DIR;
  if (!d) throw new Error('WAYMARK_GUIDES_DIR is not set: the e2e global setup did not run');
  return d;
}

function write(name: string, value: unknown): void {
  const file = join(dir(), name);
  writeFileSync(file, JSON.stringify(value));
  written.push(file);
}

/** A launcher config of its own (feed on) for a new api key; returns the key. */
function launcherFor(data: Json = { whatsnew: true }): string {
  const apiKey = uniqueId('e2e-whatsnew');
  write(`launcher.${apiKey}.json`, { enabled: true, data });
  return apiKey;
}

/** `count` launcher-listed guides with one 200 px tall whatsnew step each, on /e2e/whatsnew/{uid} only. */
function whatsNewGuides(uid: string, count: number): string[] {
  const ids: string[] = [];
  for (let n = 1; n <= count; n++) {
    const id = `${uid}-news-${n}`;
    ids.push(id);
    write(`${id}.json`, {
      id,
      name: `News ${n}`,
      launchMethod: 'launcher',
      steps: [
        {
          id: `${id}-1`,
          guideId: id,
          type: 'whatsnew',
          regexUrlRule: `/e2e/whatsnew/${uid}(?:[?#].*)?$`,
          domJson: { type: 'div', props: { style: 'height:200px' }, children: [{ type: 'h2', props: {}, content: `Feature ${n}` }, { type: 'p', props: {}, content: `What changed in release ${n}.` }] },
        },
      ],
    });
  }
  return ids;
}

function page_(apiKey: string, visitor: string, body = ''): string {
  return hostPage({ init: `waymark.initialize({ apiKey: '${apiKey}', visitor: { id: '${visitor}' } });`, body: `<h1>What's new host</h1>${body}` });
}

async function shot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(name);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

const head = `${panel} .wm-launcher-head span`;
const unseenIn = async (page: Page) => Number(/What's new: (\d+) unseen/.exec((await page.locator(head).textContent()) ?? '')?.[1] ?? NaN);

test.describe("guides §2 What's-new feed in the launcher", () => {
  test("items render in the panel; one scrolled into view is seen after 1000 ms, not before: guideSeen (reason launcher), the count drops, and it stays seen after a reload", async ({ page, serverUrl, openHostPage }, testInfo) => {
    const uid = uniqueId('wn');
    const apiKey = launcherFor();
    const visitor = uniqueId('wn-visitor');
    const ids = whatsNewGuides(uid, 3);
    await openHostPage(`/e2e/whatsnew/${uid}`, page_(apiKey, visitor));
    await expect(page.locator(bubble)).toHaveText('3');
    // The badge's name says the count (its own label hides the bubble's from assistive technology).
    await expect(page.locator(badge)).toHaveAccessibleName('Guides, 3 unseen');

    await page.locator(badge).click();
    const items = page.locator(panel).locator('.wm-whatsnew-item');
    await expect(items).toHaveCount(3);
    await expect(items.locator('h2')).toHaveText(['Feature 1', 'Feature 2', 'Feature 3']);
    await expect(page.locator(panel).getByRole('heading', { name: "What's new" })).toBeVisible();

    // Whatever is in view at the top is seen within the delay; the last item is below the fold and stays unseen.
    await page.waitForTimeout(WHATSNEW_SEEN_DELAY_MS + 600);
    const before = await unseenIn(page);
    expect(before).toBeGreaterThanOrEqual(1);
    await expect(items.nth(2)).toHaveAttribute('data-unseen', '');
    await shot(page, testInfo, 'whatsnew-1280.png');

    await items.nth(2).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    const scrolledAt = Date.now();
    // Active now, not yet seen: shortly after the scroll the count has not moved.
    await page.waitForTimeout(400);
    expect(await unseenIn(page)).toBe(before);
    await expect(items.nth(2)).toHaveAttribute('data-unseen', '');
    await expect.poll(() => unseenIn(page)).toBe(before - 1);
    expect(Date.now() - scrolledAt).toBeGreaterThanOrEqual(WHATSNEW_SEEN_DELAY_MS);
    await expect(items.nth(2)).not.toHaveAttribute('data-unseen', '');
    if (before - 1 > 0) await expect(page.locator(bubble)).toHaveText(String(before - 1));
    else await expect(page.locator(bubble)).toHaveCount(0);
    await shot(page, testInfo, 'whatsnew-1280-seen.png');

    await page.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (e) => e.some((x) => x.type === 'guideSeen' && x.props.guide_id === ids[2]));
    expect(events.find((e) => e.type === 'guideSeen' && e.props.guide_id === ids[2])!.props).toMatchObject({ guide_step_id: `${ids[2]}-1`, reason: 'launcher' });

    // The next load knows it as seen (the collector keeps the state).
    await page.reload();
    await agentReady(page);
    await expect(page.locator(badge)).toBeVisible();
    if (before - 1 > 0) await expect(page.locator(bubble)).toHaveText(String(before - 1));
    else await expect(page.locator(bubble)).toHaveCount(0);
    await page.locator(badge).click();
    await expect(items.nth(2)).not.toHaveAttribute('data-unseen', '');
    await expect(items.nth(2)).toHaveAttribute('aria-label', 'News 3 (seen)');
    await expect(page.locator(lightbox)).toHaveCount(0);
  });

  test('without data.whatsnew the panel has no feed', async ({ page, openHostPage }) => {
    const uid = uniqueId('wn-off');
    const apiKey = launcherFor({});
    whatsNewGuides(uid, 1);
    await openHostPage(`/e2e/whatsnew/${uid}`, page_(apiKey, uniqueId('wn-visitor')));
    await page.locator(badge).click();
    await expect(page.locator(panel).locator('.wm-item')).toHaveText(['News 1']);
    await expect(page.locator(panel).locator('.wm-whatsnew-item')).toHaveCount(0);
  });
});

test.describe("guides §2 What's-new feed on a 375 px wide window", () => {
  test.use({ viewport: { width: 375, height: 667 } });
  test('the panel keeps its size rules and shows the feed', async ({ page, openHostPage }, testInfo) => {
    const uid = uniqueId('wn-narrow');
    const apiKey = launcherFor();
    whatsNewGuides(uid, 2);
    await openHostPage(`/e2e/whatsnew/${uid}`, page_(apiKey, uniqueId('wn-visitor')));
    await page.locator(badge).click();
    await expect(page.locator(panel).locator('.wm-whatsnew-item')).toHaveCount(2);
    const b = (await page.locator(panel).boundingBox())!;
    // guides §2 330 x 310, +40 for the credit line.
    expect({ width: Math.round(b.width), height: Math.round(b.height) }).toEqual({ width: 330, height: 350 });
    await shot(page, testInfo, 'whatsnew-375.png');
  });
});

test.describe('guides §2 Badges (image or building-block)', () => {
  test('a building-block badge is drawn on its target in place of the mark, and a click opens its guide (reason badge)', async ({ page, serverUrl, openHostPage }, testInfo) => {
    const uid = uniqueId('wn-badge');
    const apiKey = uniqueId('e2e-whatsnew');
    const visitor = uniqueId('wn-visitor');
    write(`${uid}.json`, {
      id: uid,
      name: 'New here',
      launchMethod: 'badge',
      attributes: { badge: { position: 'top-right', elementPathRule: '#wn-badge-target', content: { type: 'span', props: { class: 'wn-new' }, children: [], content: 'New' } } },
      steps: [{ id: `${uid}-1`, guideId: uid, type: 'lightbox', regexUrlRule: `/e2e/whatsnew/${uid}(?:[?#].*)?$`, domJson: { type: 'div', props: {}, children: [{ type: 'h2', props: {}, content: 'Reports got faster' }] } }],
    });
    await openHostPage(
      `/e2e/whatsnew/${uid}`,
      page_(apiKey, visitor, '<div id="wn-badge-target" style="margin:120px 0 0 200px;width:240px;height:60px;background:#eef">Reports</div>'),
    );
    const mark = page.locator('[data-waymark-overlay] .wm-badge');
    await expect(mark).toHaveAttribute('aria-label', 'Open guide: New here');
    await expect(mark).toHaveText('New');
    await expect(mark.locator('span.wn-new')).toHaveCount(1);
    const target = (await page.locator('#wn-badge-target').boundingBox())!;
    // Placed like any top-right badge: over the target's top-right corner.
    await expect
      .poll(async () => {
        const b = (await mark.boundingBox())!;
        const right = target.x + target.width;
        return b.x < right && b.x + b.width > right && b.y < target.y && b.y + b.height > target.y;
      })
      .toBe(true);
    await shot(page, testInfo, 'badge-blocks-1280.png');
    await mark.click();
    await expect(page.locator(lightbox)).toContainText('Reports got faster');
    await page.evaluate(() => (window as any).waymark.flushNow());
    const events = await waitForEvents(serverUrl, { apiKey, visitorId: visitor }, (e) => e.some((x) => x.type === 'guideSeen'));
    expect(events.find((e) => e.type === 'guideSeen')!.props).toMatchObject({ guide_id: uid, reason: 'badge' });
  });
});
