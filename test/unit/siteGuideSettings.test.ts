/** Issue #14: the app's guide settings served in guide.json (`settings`) order and throttle auto guides, unless the host set its own. */
import { describe, expect, it } from 'vitest';
import type { Guide } from '../../shared/guides/guides';
import { readSiteGuideSettings } from '../../shared/guides/readSiteGuideSettings';
import type { WorkerInit } from '../../shared/protocol';
import { createGuideEngine } from '../../worker/createGuideEngine';
import { createFakeClock, createFakeTransport, engineInit, PROBED } from './fakes';

const content = { type: 'div', props: { id: 'guide-base' }, children: [] };
const guide = (id: string, extra: Partial<Guide> = {}): Guide => ({
  id,
  launchMethod: 'auto',
  steps: [{ id: `${id}-1`, guideId: id, type: 'lightbox', domJson: content }],
  ...extra,
});

async function candidates(settings: unknown, guides: WorkerInit['guides'] = PROBED): Promise<string[]> {
  const transport = createFakeTransport();
  const body = { guides: [guide('training', { isTraining: true }), guide('other')], lastGuideStepSeen: {}, settings };
  transport.bodies.push({ match: '/data/guide.json/', body: JSON.stringify(body) });
  const engine = createGuideEngine({ config: engineInit(guides), ports: { clock: createFakeClock(), transport }, log: () => {}, nextSequence: () => 0, isSending: () => true });
  const result = await engine.load('http://h/');
  return result.ok ? result.value.candidates.map((c) => c.guideId) : [];
}

describe('issue #14 guide.json settings', () => {
  it('reads throttling and adoptionGuides, leaving out what is malformed', () => {
    expect(readSiteGuideSettings({ throttling: { enabled: true, interval: 2, unit: 'hour' }, adoptionGuides: 'after' })).toEqual({
      throttling: { enabled: true, interval: 2, unit: 'hour' },
      adoptionGuides: 'after',
    });
    expect(readSiteGuideSettings({ throttling: { enabled: 'yes', interval: 2, unit: 'hour' }, adoptionGuides: 'middle' })).toEqual({});
    expect(readSiteGuideSettings('nope')).toEqual({});
  });

  it("puts adoption guides after the others when the app's settings say so, unless the host's initialize says before", async () => {
    expect(await candidates(undefined)).toEqual(['training', 'other']);
    expect(await candidates({ adoptionGuides: 'after' })).toEqual(['other', 'training']);
    expect(await candidates({ adoptionGuides: 'after' }, { ...PROBED, adoptionGuides: 'before' })).toEqual(['training', 'other']);
  });
});
