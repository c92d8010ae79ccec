/**
 * Issue #17 markdown plugin on the reference server: guide.json serves a step's markdown as building blocks for the
 * visitor asking (skipped, substituted), as plain text when the site config guideMarkdown is off; the preview
 * endpoint converts it too; the console's guide PUT refuses a malformed tag naming the step and the line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomNode, Guide } from '../../shared/guides/guides';
import { ADMIN_HEADERS, guideEvent, nodeJzb, SERVER_TIMEOUT, startTestServer, type TestServer } from './testServer';

const tour = {
  id: 'md-tour',
  name: 'Markdown tour',
  launchMethod: 'auto',
  isMultiStep: true,
  steps: [
    { id: 'md-1', type: 'lightbox', markdown: '# Hi {{visitor.firstName | there}}\n\nYour plan: **{{account.plan | free}}**\n\n[[Next]] [[Go to step 3: Straight to reports]]' },
    { id: 'md-2', type: 'lightbox', markdown: '<!-- skip if visitor.role is "admin" -->\nAdmins never see this.\n\n[[Back]] [[Next]]' },
    { id: 'md-3', type: 'lightbox', markdown: '??? How did you hear about us? (required)\n- ( ) Search\n- ( ) A friend\n\n[[Next: Done]]' },
    { id: 'md-4', type: 'lightbox', markdown: 'Thanks, {{visitor.firstName | friend}}! [[Dismiss: Close]]' },
  ],
};
const onlyAdmins = { id: 'md-admins', launchMethod: 'auto', steps: [{ id: 'a-1', type: 'lightbox', markdown: '<!-- skip unless visitor.role is admin -->\nFor admins' }] };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ 'md-tour.json': tour, 'md-admins.json': onlyAdmins });
}, SERVER_TIMEOUT);
afterAll(() => server.close(), SERVER_TIMEOUT);

const api = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) =>
  server.app.inject({ method, url, headers: ADMIN_HEADERS, ...(payload !== undefined ? { payload: payload as object } : {}) });

async function served(apiKey: string, visitorId: string, metadata: object = {}): Promise<{ guides: Guide[]; lastGuideStepSeen: Record<string, unknown> }> {
  const jzb = nodeJzb({ visitorId, accountId: 'acme', url: 'http://127.0.0.1/', oldVisitorId: '', metadata });
  const response = await server.app.inject({ method: 'GET', url: `/data/guide.json/${apiKey}?jzb=${jzb}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function nodes(root: DomNode): DomNode[] {
  return [root, ...(root.children ?? []).flatMap(nodes)];
}
const text = (root: DomNode | undefined) => nodes(root!).map((n) => n.content ?? '').join('');

describe('issue #17 markdown plugin: guide.json', () => {
  it("serves each visitor their steps with their metadata, the markdown itself never", async () => {
    const admin = await served('md-app', 'md-admin', { visitor: { firstName: 'Ada', role: 'admin' }, account: { plan: 'pro' } });
    const guide = admin.guides.find((g) => g.id === 'md-tour')!;
    expect(guide.steps.map((s) => s.id)).toEqual(['md-1', 'md-3', 'md-4']);
    expect(text(guide.steps[0]!.domJson)).toContain('Hi Ada');
    expect(text(guide.steps[0]!.domJson)).toContain('Your plan: pro');
    expect(JSON.stringify(admin)).not.toContain('markdown');
    // The jump to step 3 and the required question.
    const jump = nodes(guide.steps[0]!.domJson!).find((n) => n.content === 'Straight to reports')!;
    expect(jump.actions!.map((a) => [a.action, a.parameters])).toEqual([['goToStep', ['md-3']]]);
    expect(guide.steps[1]!.attributes?.isRequired).toBe(true);
    expect(guide.polls).toEqual([{ id: 'md-3-q1', attributes: { type: 'PickList' } }]);
    expect(admin.guides.map((g) => g.id)).toContain('md-admins');

    const visitor = await served('md-app', 'md-someone', {});
    expect(visitor.guides.find((g) => g.id === 'md-tour')!.steps.map((s) => s.id)).toEqual(['md-1', 'md-2', 'md-3', 'md-4']);
    expect(text(visitor.guides.find((g) => g.id === 'md-tour')!.steps[0]!.domJson)).toContain('Hi there');
    // Every step of md-admins is skipped for a visitor who is not an admin: the guide is not served.
    expect(visitor.guides.map((g) => g.id)).not.toContain('md-admins');
  });

  it('skips before seen states are applied: a served step keeps its state, a skipped one is not there', async () => {
    const events = [guideEvent('guideSeen', { guide_id: 'md-tour', guide_step_id: 'md-1' }, { visitor_id: 'md-seen' })];
    expect((await server.app.inject({ method: 'GET', url: `/data/guide.gif/md-app?jzb=${nodeJzb(events)}` })).statusCode).toBe(200);
    const body = await served('md-app', 'md-seen', { visitor: { role: 'admin' } });
    const steps = body.guides.find((g) => g.id === 'md-tour')!.steps;
    expect(steps.map((s) => [s.id, s.seenState])).toEqual([['md-1', 'active'], ['md-3', undefined], ['md-4', undefined]]);
    expect(body.lastGuideStepSeen).toMatchObject({ guideId: 'md-tour', guideStepId: 'md-1', state: 'active' });
  });

  it('with the site config guideMarkdown false, the source is served as plain text; on again, read again', async () => {
    const off = await api('PUT', '/api/apps/md-off/settings', { guideMarkdown: false });
    expect(off.statusCode, off.body).toBe(200);
    const body = await served('md-off', 'md-plain', { visitor: { firstName: 'Ada', role: 'admin' } });
    const guide = body.guides.find((g) => g.id === 'md-tour')!;
    expect(guide.steps.map((s) => s.id)).toEqual(['md-1', 'md-2', 'md-3', 'md-4']);
    expect(guide.steps[0]!.domJson!.children![0]).toEqual({ type: 'p', props: { style: 'white-space: pre-wrap;' }, content: '# Hi {{visitor.firstName | there}}' });
    expect(nodes(guide.steps[0]!.domJson!).some((n) => n.type === 'button')).toBe(false);
    expect(guide.steps[2]!.attributes).toBeUndefined();
    expect(body.guides.map((g) => g.id)).toContain('md-admins');
    expect((await api('PUT', '/api/apps/md-off/settings', { guideMarkdown: true })).statusCode).toBe(200);
    const on = await served('md-off', 'md-plain', { visitor: { firstName: 'Ada', role: 'admin' } });
    expect(text(on.guides.find((g) => g.id === 'md-tour')!.steps[0]!.domJson)).toContain('Hi Ada');
  });
});

describe('issue #17 markdown plugin: the console', () => {
  it('a guide PUT refuses a malformed tag with the step and the line, and takes a good one', async () => {
    const bad = { ...tour, id: 'md-bad', steps: [{ ...tour.steps[0], markdown: '# Hi [[Next]]' }, { ...tour.steps[1], markdown: 'Fine\n\nthen [[Go to step 7]]' }] };
    const refused = await api('PUT', '/api/apps/md-console/guides/md-bad', bad);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'step md-2, markdown line 3: [[Go to step 7]]: the guide has no step 7 (it has 2)', field: 'steps[1].markdown' });
    const skip = await api('PUT', '/api/apps/md-console/guides/md-bad', { ...bad, steps: [{ ...tour.steps[0], markdown: '<!-- skip if role is admin -->' }] });
    expect(skip.json()).toEqual({ error: expect.stringMatching(/^step md-1, markdown line 1: skip marker "skip if role is admin": role: unknown path/), field: 'steps[0].markdown' });
    const good = await api('PUT', '/api/apps/md-console/guides/md-tour', tour);
    expect(good.statusCode, good.body).toBe(201);
    // Stored as written: the author's source is kept.
    expect((await api('GET', '/api/apps/md-console/guides/md-tour')).json().guide.steps[0].markdown).toBe(tour.steps[0]!.markdown);
  });

  it('the preview endpoint converts markdown with the fallbacks and shows every step; plain text when off', async () => {
    const preview = async () => (await api('GET', '/api/s/sub/guide/md-tour/preview?apiKey=md-console&url=http%3A%2F%2F127.0.0.1%2F')).json();
    const on = await preview();
    expect(on.guide.steps.map((s: { id: string }) => s.id)).toEqual(['md-1', 'md-2', 'md-3', 'md-4']);
    expect(text(on.guide.steps[0].domJson)).toContain('Hi there');
    expect(JSON.stringify(on.guide)).not.toContain('"markdown"');
    expect((await api('PUT', '/api/apps/md-console/settings', { guideMarkdown: false })).statusCode).toBe(200);
    const off = await preview();
    expect(off.guide.steps[0].domJson.children[0].content).toBe('# Hi {{visitor.firstName | there}}');
  });
});
