import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuideLoadResponse } from '../../shared/guides';
import { chooseLauncher } from '../../shared/chooseLauncher';
import { selectAutoSteps } from '../../shared/selectAutoSteps';
import { checkGuideLoadResponse, checkStepContent } from '../../shared/validateGuidePayload';
import { guideEvent, nodeJzb, startTestServer, SERVER_TIMEOUT, type TestServer } from './testServer';

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
    expect(response.guides.map((g) => g.id)).toEqual(['feedback', 'getting-started', 'reports-tip', 'settings-tour', 'welcome', 'whats-new-exports']);
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
    expect(choice.launcher).toMatchObject({ launchType: 'badge', position: 'bottom-right', enableSearch: true, onboarding: { percent: 0 }, whatsnewUnseen: 1 });
    expect(choice.launcher?.guides.map((g) => g.guideId)).toEqual(['getting-started', 'whats-new-exports']);
  });
});
