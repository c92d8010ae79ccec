/**
 * issue #32: the guide steps a visitor sees, in Firefox ESR (WebDriver BiDi) and WebKitGTK (WebDriver), with the
 * engine's own clicks and keys, against the reference server: the tooltip that follows its element, the block-out,
 * a tour's Next and Back, the banner, a badge, an NPS rating and a poll answered, and the lightbox as a modal dialog
 * (focus, Tab, Escape), painted from the worker's nodes without React's overlay (issue #34). Each journey is the one a Chromium e2e spec runs (named on it), on its test guides
 * (test/e2e/guides/*.json) and host pages; what the visitor did is read back from the server. The launcher and the
 * resource center are in surfacesPanels.test.ts. Screenshots: test-results/engines/{engine}-{surface}.png.
 */
import { expect, it } from 'vitest';
import { pollBlocks, pollRecords } from '../../overlay/author/designer/designerPolls';
import { hostPage, uniqueId } from '../e2e/fixtures';
import { write } from '../e2e/resourceCenterPages';
import { describeSurfaces, initFor, showing, storedUntil } from './describeSurfaces';

describeSurfaces((s) => {
  const { open, run, until, shot } = s;

  it('guides §2, §9 a tooltip follows its element as the window and its container scroll and as the element moves (surfaces.spec.ts)', async () => {
    const body = `<div style="height: 300px"></div>
      <div id="scroller" style="width: 600px; height: 300px; margin: 0 auto; overflow: auto; border: 1px solid #ccc">
        <div style="height: 150px"></div><button id="follow-target" style="margin-left: 200px">Follow me</button><div style="height: 900px"></div>
      </div><div style="height: 1500px"></div>`;
    const apiKey = 'e2e';
    const visitor = uniqueId('engines-follow');
    await open('/e2e/surface-follow', hostPage({ init: initFor(apiKey, visitor), body }));
    await until(showing('.wm-tooltip', 'I stay with my button'));
    // Under the element by the arrow size (15 px, guides §2), overlapping it across, its caret over the element.
    const attached = `const t = document.getElementById('follow-target').getBoundingClientRect();
      const b = deepQuery('.wm-tooltip').getBoundingClientRect();
      const c = deepQuery('.wm-tooltip .wm-caret').getBoundingClientRect();
      return Math.abs(b.top - t.bottom - 15) <= 1 && b.left < t.right && b.right > t.left && c.left >= t.left - 1 && c.right <= t.right + 1`;
    await until(attached);
    const before = await run<{ x: number; y: number }>("return box('.wm-tooltip')");

    // Each move: the tooltip comes back under its element (it stays put until it follows), moved as far as the element.
    const moved = async () => {
      await until(attached);
      const now = await run<{ x: number; y: number }>("return box('.wm-tooltip')");
      return { x: now.x - before.x, y: now.y - before.y };
    };
    await run('window.scrollBy(0, 120)');
    expect(await moved()).toEqual({ x: 0, y: -120 });
    // Here, not before: in Firefox's 800 x 600 viewport the page's first view has the tooltip at its bottom edge.
    await shot('tooltip');

    await run("document.getElementById('scroller').scrollTop = 60");
    expect(await moved()).toEqual({ x: 0, y: -180 });

    // The element moves in the layout (no scroll, no resize): the tooltip goes with it.
    await run("document.getElementById('follow-target').style.marginLeft = '320px'");
    expect(await moved()).toEqual({ x: 120, y: -180 });
    await shot('tooltip-followed');

    // guides §2: Escape dismisses the step, from wherever focus is in the page.
    await s.page.press('Escape');
    await until("return !deepQuery('.wm-tooltip')");
    await run('window.waymark.flushNow()');
    const events = await storedUntil(apiKey, visitor, (e) => e.some((x) => x.type === 'guideDismissed'));
    expect(events.filter((e) => e.type === 'guideDismissed').map((e) => e.props.guide_id)).toEqual(['e2e-surface-follow']);
  });

  it('guides §2 block-out: four panes around the element and the additional one follow scroll, the element takes a real click, the close button dismisses (surfaces.spec.ts)', async () => {
    const apiKey = 'e2e';
    const visitor = uniqueId('engines-blockout');
    const body = `<div style="position:relative;height:2400px">
      <button id="bo-target" style="position:absolute;left:200px;top:300px;width:120px;height:40px">Target</button>
      <span id="bo-extra" style="position:absolute;left:360px;top:260px;width:80px;height:24px;background:#fde68a">Extra</span>
      <button id="bo-other" style="position:absolute;left:600px;top:600px;width:100px;height:40px">Other</button>
    </div>
    <script>window.clicks = []; document.addEventListener('click', (e) => clicks.push(e.target.id || (e.target.hasAttribute('data-waymark-overlay') ? 'overlay' : e.target.tagName)));</script>`;
    await open('/e2e/surface-blockout', hostPage({ init: initFor(apiKey, visitor), body, head: '<style>body { margin: 0 }</style>' }));
    await until(showing('.wm-tooltip', 'Start here'));
    // The hole: the union of #bo-target (200,300 120x40) and #bo-extra (360,260 80x24), 8 px of padding.
    const panes = (top: number) => `const w = document.documentElement.clientWidth, h = document.documentElement.clientHeight;
      const bottom = ${top} + 96;
      const want = { top: [0, 0, w, ${top}], bottom: [0, bottom, w, h - bottom], left: [0, ${top}, 192, 96], right: [448, ${top}, w - 448, 96] };
      return Object.entries(want).every(([side, [x, y, width, height]]) => {
        const r = deepQuery('.wm-blockout[data-side=' + side + ']')?.getBoundingClientRect();
        return r && [r.x, r.y, r.width, r.height].map(Math.round).join() === [x, y, width, height].join();
      })`;
    await until(panes(252));
    await shot('blockout');

    // The element in the hole takes the engine's click.
    await s.page.click('#bo-target');
    expect(await run('return window.clicks')).toEqual(['bo-target']);

    await run('window.scrollTo(0, 100)');
    await until(panes(152));
    await shot('blockout-scrolled');
    // The rest of the page is under a pane: hit-tested by the engine at #bo-other's centre (in view in both
    // viewports once scrolled), since WebDriver's Element Click refuses an element another one covers.
    const hit = `const r = document.getElementById('bo-other').getBoundingClientRect();
      return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)?.hasAttribute('data-waymark-overlay') ?? null`;
    expect(await run(hit)).toBe(true);

    await s.page.click('.wm-tooltip .wm-close');
    await until("return !deepQuery('.wm-tooltip') && !deepQuery('.wm-blockout')");
    await run('window.waymark.flushNow()');
    const events = await storedUntil(apiKey, visitor, (e) => e.some((x) => x.type === 'guideDismissed'));
    expect(events.filter((e) => e.type === 'guideDismissed').map((e) => e.props.guide_id)).toEqual(['e2e-surface-blockout']);
  });

  it('guides §4 a tour advances with Next, goes back with Back, and ends with Done; each move stored (guides.spec.ts)', async () => {
    const apiKey = 'e2e';
    const visitor = uniqueId('engines-tour');
    await open('/e2e/resume', hostPage({ init: initFor(apiKey, visitor) }));
    await until(showing('.wm-lightbox', 'Tour one'));
    expect(await run("return deepQuery('.wm-lightbox').textContent")).toContain('Step 1 of 3');
    await shot('tour');
    await s.page.click('#r-next-1');
    await until(showing('.wm-lightbox', 'Tour two'));
    expect(await run("return deepQuery('.wm-lightbox').textContent")).toContain('Step 2 of 3');
    await s.page.click('#r-back-2');
    await until(showing('.wm-lightbox', 'Tour one'));
    // Next from the keyboard this time: the new step's dialog has focus; Tab to the close button, then to Next.
    await until("return focused() === 'wm-step wm-lightbox'");
    await s.page.press('Tab');
    await s.page.press('Tab');
    expect(await run('return focused()')).toBe('r-next-1');
    await s.page.press('Enter');
    await until(showing('.wm-lightbox', 'Tour two'));
    await s.page.click('#r-next-2');
    await until(showing('.wm-lightbox', 'Tour three'));
    await s.page.click('#r-done-3');
    await until("return !deepQuery('.wm-lightbox')");
    await run('window.waymark.flushNow()');
    const events = await storedUntil(apiKey, visitor, (e) => e.some((x) => x.type === 'guideAdvanced' && x.props.guide_step_id === 'e2e-resume-3'));
    expect(events.filter((e) => e.type === 'guideSeen').map((e) => `${e.props.guide_step_id}:${e.props.reason}`)).toEqual([
      'e2e-resume-1:auto',
      'e2e-resume-2:continue',
      'e2e-resume-1:continue',
      'e2e-resume-2:continue',
      'e2e-resume-3:continue',
    ]);
    const back = events.find((e) => e.type === 'guideAdvanced' && e.props.guide_step_id === 'e2e-resume-2');
    expect(back?.props.destination_step_id).toBe('e2e-resume-1');
  });

  it('guides §2 a banner spans the top of the viewport, the page beside takes clicks, its close button dismisses it (guideActions.spec.ts)', async () => {
    const apiKey = 'e2e';
    const visitor = uniqueId('engines-banner');
    const body = '<button id="page-button" style="margin-top:300px" onclick="window.pressed = true">Page</button>';
    await open('/e2e/banner', hostPage({ init: initFor(apiKey, visitor), body }));
    await until(showing('.wm-banner', 'Scheduled maintenance on Sunday'));
    const banner = await run<{ x: number; y: number; width: number }>("return box('.wm-banner')");
    expect(banner).toMatchObject({ x: 0, y: 0, width: await run<number>('return document.documentElement.clientWidth') });
    expect(await run("return deepQuery('.wm-banner').getAttribute('role')")).toBe('region');
    expect(await run("return deepQuery('.wm-backdrop') === null")).toBe(true);
    await shot('banner');
    await s.page.click('#page-button');
    expect(await run('return window.pressed === true')).toBe(true);
    await s.page.click('.wm-banner .wm-close');
    await until("return !deepQuery('.wm-banner')");
    await run('window.waymark.flushNow()');
    const events = await storedUntil(apiKey, visitor, (e) => e.some((x) => x.type === 'guideDismissed'));
    expect(events.filter((e) => e.type === 'guideDismissed').map((e) => e.props.guide_id)).toEqual(['e2e-banner']);
  });

  it("guides §2 a badge sits on its element's top-right corner and a click opens its guide, seen with reason badge (guideActions.spec.ts)", async () => {
    const apiKey = 'e2e';
    const visitor = uniqueId('engines-badge');
    const body = '<div id="e2e-badge-target" style="margin:120px 0 0 200px;width:240px;height:60px;background:#eef">Revenue</div>';
    await open('/e2e/badge', hostPage({ init: initFor(apiKey, visitor), body }));
    const badge = '.wm-badge[data-guide-id="e2e-badge"]';
    await until(`return !!deepQuery('${badge}')`);
    // Centred on the element's top-right corner.
    const offCorner = `const t = document.getElementById('e2e-badge-target').getBoundingClientRect();
      const b = deepQuery('${badge}').getBoundingClientRect();
      return [Math.round(b.x + b.width / 2 - t.right), Math.round(b.y + b.height / 2 - t.top)].join()`;
    await until(`${offCorner} === '0,0'`);
    expect(await run(`return deepQuery('${badge}').getAttribute('aria-label')`)).toBe('Open guide: What is this?');
    await shot('badge');
    await s.page.click(badge);
    await until(showing('.wm-lightbox', 'Revenue explained'));
    await run('window.waymark.flushNow()');
    const events = await storedUntil(apiKey, visitor, (e) => e.some((x) => x.type === 'guideSeen'));
    expect(events.filter((e) => e.type === 'guideSeen').map((e) => e.props)).toEqual([expect.objectContaining({ guide_id: 'e2e-badge', reason: 'badge' })]);
  });

  it('guides §2, §5 an NPS rating clicked and its reason typed with real keys are stored as pollResponse events (guideActions.spec.ts)', async () => {
    const apiKey = 'e2e';
    const visitor = uniqueId('engines-nps');
    await open('/e2e/nps', hostPage({ init: initFor(apiKey, visitor) }));
    await until(showing('.wm-lightbox', 'How likely are you to recommend us?'));
    await shot('nps');
    await s.page.click('.wm-lightbox input[value="9"]');
    await s.page.type('.wm-lightbox #why', 'Fast and friendly');
    const asked = s.requested().length;
    await s.page.click('.wm-lightbox #poll-submit');
    await until("return deepQuery('.wm-lightbox [role=status]')?.textContent === 'Thanks, that helps!'");
    await shot('nps-thanks');
    await run('window.waymark.flushNow()');
    const events = await storedUntil(apiKey, visitor, (e) => e.filter((x) => x.type === 'pollResponse').length === 2);
    const answers = events.filter((e) => e.type === 'pollResponse').map((e) => e.props);
    expect(answers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ guide_id: 'e2e-nps', guide_step_id: 'e2e-nps-1', poll_id: 'nps-1', poll_response: 9, poll_type: 'NPSRating', duration: expect.any(Number) }),
        expect.objectContaining({ guide_id: 'e2e-nps', guide_step_id: 'e2e-nps-1', poll_id: 'why-1', poll_response: 'Fast and friendly', poll_type: 'FreeForm', duration: expect.any(Number) }),
      ]),
    );
    expect(answers).toHaveLength(2);
    // Sent on the poll beacon (guides §5), not the guide events' one.
    expect(s.requested().slice(asked).some((path) => path.startsWith('/data/poll.gif/e2e?'))).toBe(true);
  });

  it("guides §2, §5 a designer's multiple-choice poll answered with the keyboard alone (arrow keys in the radio group, Tab, Enter) is stored as a pollResponse (designer.spec.ts)", async () => {
    const apiKey = 'e2e';
    const visitor = uniqueId('engines-poll');
    const uid = uniqueId('engines-poll');
    const stepId = `${uid}-1`;
    const poll = { kind: 'choice' as const, question: 'Which do you use most?', options: ['Reports', 'Exports', 'Sharing'] };
    write([
      {
        id: uid,
        name: 'A quick question',
        launchMethod: 'auto',
        polls: pollRecords(stepId, poll),
        steps: [
          {
            id: stepId,
            guideId: uid,
            type: 'lightbox',
            regexUrlRule: `/e2e/poll/${uid}$`,
            domJson: { type: 'div', props: { id: 'guide-base' }, children: [{ type: 'h2', props: {}, content: 'A quick question' }, ...pollBlocks(stepId, poll)] },
          },
        ],
      },
    ]);
    await open(`/e2e/poll/${uid}`, hostPage({ init: initFor(apiKey, visitor) }));
    await until(showing('.wm-lightbox', 'Which do you use most?'));
    // The dialog has focus (guides §9 autofocus); Tab: the close button, then the radio group (one stop).
    await until("return focused() === 'wm-step wm-lightbox'");
    await s.page.press('Tab');
    await s.page.press('Tab');
    expect(await run(`return active().value`)).toBe('Reports');
    expect(await run(`return active().matches(':focus-visible') && getComputedStyle(active()).outlineStyle`)).toBe('solid');
    // Arrow keys move the choice within the group, as the browser does for radios. (WebKitGTK 2.50 then draws no
    // focus ring on the radio: its own arrow-key move leaves :focus-visible unmatched, on any page.)
    await s.page.press('ArrowRight');
    await until("return deepQuery('.wm-lightbox input[value=Exports]').checked");
    expect(await run(`return active().value`)).toBe('Exports');
    await shot('poll');
    await s.page.press('Tab');
    expect(await run('return focused()')).toBe(`${stepId}-send`);
    await s.page.press('Enter');
    await until("return !!deepQuery('.wm-lightbox [role=status]')");
    await run('window.waymark.flushNow()');
    const events = await storedUntil(apiKey, visitor, (e) => e.some((x) => x.type === 'pollResponse'));
    expect(events.filter((e) => e.type === 'pollResponse').map((e) => e.props)).toEqual([
      expect.objectContaining({ guide_id: uid, guide_step_id: stepId, poll_id: `${stepId}-choice`, poll_response: 'Exports', poll_type: 'PickList', duration: expect.any(Number) }),
    ]);
  });

  it('guides §2 a lightbox is a modal dialog: focus moves into it, Tab stays inside and wraps, Escape dismisses and focus returns (surfaces.spec.ts)', async () => {
    const apiKey = 'e2e';
    const visitor = uniqueId('engines-lightbox');
    await open(
      '/e2e/surface-lightbox',
      hostPage({ init: initFor(apiKey, visitor, ', delayGuides: true'), body: '<h1>Host</h1><button id="opener">Open settings</button>' }),
    );
    await run("document.getElementById('opener').focus()");
    await run('window.waymark.startGuides()');
    await until(showing('.wm-lightbox', 'Welcome aboard'));
    expect(await run("const d = deepQuery('.wm-lightbox'); return [d.getAttribute('role'), d.getAttribute('aria-modal')]")).toEqual(['dialog', 'true']);
    await until("return focused() === 'wm-step wm-lightbox'");
    expect(await run("return [document.body.getAttribute('aria-hidden'), document.body.hasAttribute('inert')]")).toEqual(['true', true]);
    const order: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      await s.page.press('Tab');
      order.push(await run('return focused()'));
    }
    expect(order).toEqual(['close', 'surface-more', 'surface-ok', 'close']);
    // A visible focus ring on the control the keyboard is on.
    expect(await run(`const s = getComputedStyle(active()); return s.outlineStyle + ' ' + s.outlineWidth`)).toBe('solid 3px');
    await shot('lightbox-focus');
    await s.page.press('Escape');
    await until("return !deepQuery('.wm-lightbox')");
    await until("return document.activeElement?.id === 'opener'");
    expect(await run("return [document.body.hasAttribute('aria-hidden'), document.body.hasAttribute('inert')]")).toEqual([false, false]);
    await run('window.waymark.flushNow()');
    const events = await storedUntil(apiKey, visitor, (e) => e.some((x) => x.type === 'guideDismissed'));
    expect(events.filter((e) => e.type === 'guideDismissed').map((e) => e.props.guide_id)).toEqual(['e2e-surface-lightbox']);
    // Issue #34: the worker painted it, so the page loaded the steps chunk and never React's overlay.
    const files = await run<string[]>("return performance.getEntriesByType('resource').map((e) => e.name.split('?')[0].split('/').pop()).filter((n) => n.startsWith('waymark.'))");
    expect(files).toContain('waymark.steps.js');
    expect(files).not.toContain('waymark.overlay.js');
  });

  it("issue #34 ahead of a guide the overlay lays a hidden sample of a step's faces out for a frame, then leaves the page as it was (warmFaces.spec.ts)", async () => {
    // The host's comings and goings, recorded from the page's start. The harness's scripts run as the visitor's
    // gesture, and the overlay holds its sample while a visitor has just acted: nothing is asked of the page until
    // well after that has passed.
    const head = `<script>window.overlayHostChanges = [];
      new MutationObserver((records) => { for (const r of records) {
        for (const n of r.addedNodes) if (n instanceof Element && n.hasAttribute('data-waymark-overlay')) {
          const sample = n.shadowRoot && n.shadowRoot.querySelector('[data-wm-warm-up]');
          const button = sample && sample.querySelector('button:not(.wm-close)');
          window.overlayHostChanges.push({ added: true, sample: sample && button ? { visibility: getComputedStyle(sample).visibility, ariaHidden: sample.getAttribute('aria-hidden'), buttonWeight: getComputedStyle(button).fontWeight } : null });
        }
        for (const n of r.removedNodes) if (n instanceof Element && n.hasAttribute('data-waymark-overlay')) window.overlayHostChanges.push({ added: false });
      } }).observe(document, { childList: true, subtree: true });</script>`;
    await open('/e2e/engines-warm-faces', hostPage({ init: initFor('e2e-warm-faces', uniqueId('engines-warm')), head, body: '<h1>Host</h1>' }));
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    expect(await run('return window.overlayHostChanges')).toEqual([
      { added: true, sample: { visibility: 'hidden', ariaHidden: 'true', buttonWeight: '600' } },
      { added: false },
    ]);
    expect(await run("return document.querySelectorAll('[data-waymark-overlay]').length")).toBe(0);
  });
});
