import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuideLoadResponse } from '../../shared/guides/guides';
import { chooseLauncher } from '../../shared/surfaces/chooseLauncher';
import { chooseResourceCenter } from '../../shared/surfaces/chooseResourceCenter';
import { AUTO_DISPLAY_RULES } from '../../shared/eligibility/autoDisplayRules';
import { chooseAutoSteps } from '../../shared/eligibility/chooseAutoSteps';
import { checkGuideLoadResponse, checkStepContent } from '../../shared/guides/validateGuidePayload';
import { guideEvent, nodeJzb, startTestServer, SERVER_TIMEOUT, type TestServer } from './testServer';

/** The guide's own auto-display rules only (no clock rules), as chooseAutoSteps runs them. */
const selectAutoSteps = (response: GuideLoadResponse, url: string, device: 'desktop' | 'mobile') =>
  chooseAutoSteps(response, { url, device, rules: AUTO_DISPLAY_RULES, schedule: { now: Date.now() } });

const demoGuides = fileURLToPath(new URL('../../server/demo/guides', import.meta.url));

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { guidesDir: demoGuides });
}, SERVER_TIMEOUT);
afterAll(() => server.close(), SERVER_TIMEOUT);

async function load(visitorId: string, url: string): Promise<GuideLoadResponse> {
  const jzb = nodeJzb({ visitorId, accountId: 'acme', url, oldVisitorId: null, metadata: {} });
  const response = await server.app.inject({ method: 'GET', url: `/data/guide.json/demo-app?id=1&jzb=${jzb}` });
  return response.json();
}

const shownOn = (response: GuideLoadResponse, url: string) =>
  selectAutoSteps(response, url, 'desktop').eligible.map((e) => `${e.guide.id}/${e.step.id}`);

describe('demo guides (server/demo/guides), checked with the agent\'s own rules', () => {
  it('pass the agent\'s shape checks of a guide.json response and of step content', async () => {
    const response = await load('visitor-demo', 'http://127.0.0.1:8080/');
    expect(checkGuideLoadResponse(response)).toBeNull();
    expect(response.guides.map((g) => g.id)).toEqual([
      'exports-badge',
      'feedback',
      'getting-started',
      'rc-dashboards',
      'rc-guides',
      'rc-help-center',
      'rc-news-dark-mode',
      'rc-news',
      'rc-onboarding',
      'rc-sharing',
      'reports-tip',
      'settings-tour',
      'welcome',
      'whats-new-exports',
      'whats-new-schedules',
    ]);
    for (const guide of response.guides) {
      for (const step of guide.steps) expect(checkStepContent(step.domJson), step.id).toBeNull();
    }
  });

  it('show the welcome lightbox on Home only, the reports tooltip on Reports only, the tour on Settings only', async () => {
    const response = await load('visitor-demo', 'http://127.0.0.1:8080/');
    const base = 'http://127.0.0.1:8080';
    expect(shownOn(response, `${base}/`)).toEqual(['welcome/welcome-1']);
    expect(shownOn(response, `${base}/?utm_source=x#top`)).toEqual(['welcome/welcome-1']);
    expect(shownOn(response, `${base}/reports`)).toEqual(['reports-tip/reports-tip-1']);
    expect(shownOn(response, `${base}/reports/`)).toEqual(['reports-tip/reports-tip-1']);
    expect(shownOn(response, `${base}/settings`)).toEqual(['settings-tour/settings-tour-1']);
    expect(shownOn(response, `${base}/reportsx`)).toEqual([]);
  });

  it('do not show the welcome guide again once the visitor dismissed it', async () => {
    const props = { guide_id: 'welcome', guide_step_id: 'welcome-1', seen_reason: 'auto' };
    const jzb = nodeJzb([guideEvent('guideDismissed', props, { visitor_id: 'dismisser' })]);
    await server.app.inject({ method: 'GET', url: `/data/guide.gif/demo-app?jzb=${jzb}` });
    const response = await load('dismisser', 'http://127.0.0.1:8080/');
    expect(shownOn(response, 'http://127.0.0.1:8080/')).toEqual([]);
    expect(response.lastGuideStepSeen).toMatchObject({ guideId: 'welcome', state: 'dismissed' });
  });

  it('have a launcher (launcher.json) that lists the getting-started tutorial and what\'s new on the demo pages', async () => {
    const response = await load('visitor-launcher', 'http://127.0.0.1:8080/reports');
    const choice = chooseLauncher(response, { url: 'http://127.0.0.1:8080/reports', device: 'desktop', now: Date.now() });
    expect(choice.problem).toBeUndefined();
    expect(choice.launcher).toMatchObject({ launchType: 'badge', position: 'bottom-right', enableSearch: true, onboarding: { percent: 0 }, whatsnewUnseen: 2 });
    expect(choice.launcher?.guides.map((g) => g.guideId)).toEqual(['getting-started', 'whats-new-exports', 'whats-new-schedules']);
    expect(choice.whatsnewItems?.map((i) => i.stepId)).toEqual(['whats-new-exports-1', 'whats-new-schedules-1']);
  });

  it('have a resource center (rc-*.json) at bottom-left with a guide list, onboarding and announcements on every demo page', async () => {
    for (const path of ['/', '/reports', '/settings']) {
      const url = `http://127.0.0.1:8080${path}`;
      const choice = chooseResourceCenter(await load('visitor-rc', url), { url, device: 'desktop', now: Date.now() });
      expect(choice.moduleProblem, path).toBeUndefined();
      expect(choice.resourceCenter, path).toMatchObject({ guideId: 'rc-help-center', title: 'Help center', position: 'bottom-left', badge: true, unseenCount: 2 });
      expect(choice.resourceCenter!.modules.map((m) => [m.kind, m.items.map((i) => i.guideId)]), path).toEqual([
        ['guideList', ['rc-dashboards', 'rc-sharing']],
        ['onboarding', ['getting-started']],
        ['announcements', ['whats-new-exports', 'rc-news-dark-mode']],
      ]);
      expect(choice.resourceCenter!.modules[1]!.percent).toBe(0);
    }
    // Not a page of the demo: no resource center.
    const away = 'http://127.0.0.1:8080/elsewhere';
    expect(chooseResourceCenter(await load('visitor-rc', away), { url: away, device: 'desktop', now: Date.now() }).resourceCenter).toBeNull();
  });

  it('have a badge on Reports (exports-badge) that opens a banner, and never shows it by itself', async () => {
    const response = await load('visitor-badge', 'http://127.0.0.1:8080/reports');
    const guide = response.guides.find((g) => g.id === 'exports-badge')!;
    expect(guide).toMatchObject({ launchMethod: 'badge', attributes: { badge: { position: 'top-right', elementPathRule: '#export-csv' } } });
    expect(guide.steps[0]).toMatchObject({ type: 'banner' });
    expect(shownOn(response, 'http://127.0.0.1:8080/reports')).not.toContain('exports-badge/exports-badge-1');
  });

  it('shows none of the resource center guides by itself (they are launched from its badge only)', async () => {
    const response = await load('visitor-rc-auto', 'http://127.0.0.1:8080/reports');
    expect(shownOn(response, 'http://127.0.0.1:8080/reports').filter((k) => k.startsWith('rc-'))).toEqual([]);
  });
});
