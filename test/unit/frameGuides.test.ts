/**
 * Guides across frames (issue #18; analytics §7 the cross-window messages, guides §8 'request timed out', §9 the
 * cross-frame request time-out): the request helper, the messages' check, and the leader's and a follower's side of
 * shim/frames/createFrameGuides.ts with fake windows (the e2e proof in Chromium: e2e/framesGuides.spec.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FRAME_CONNECT_RETRY, FRAME_MESSAGE_WAIT_MS, FRAME_REQUEST_TIMEOUT_MS } from '../../shared/constants';
import { frameConnectDelays } from '../../shared/frames/frameConnectDelays';
import { ok } from '../../shared/errors';
import { readFrameMessage, type FrameMessage } from '../../shared/frames/readFrameMessage';
import { MESSAGES } from '../../shared/messages';
import type { StepToShow } from '../../shared/protocol';
import { createFrameGuides, type FramedGuides, type FramePeer } from '../../shim/frames/createFrameGuides';
import { createFrameRequests } from '../../shim/frames/createFrameRequests';

afterEach(() => vi.useRealTimers());

const step = (stepId: string, over: Partial<StepToShow> = {}): StepToShow => ({
  guideId: 'g',
  guideName: 'G',
  stepId,
  type: 'tooltip',
  stepIndex: 0,
  stepCount: 2,
  elementPathRule: `#${stepId}`,
  content: { type: 'div', props: {}, children: [] },
  attributes: {},
  hideCredits: false,
  reason: 'auto',
  ...over,
});

describe('guides §8, §9: a cross-frame request waits 10,000 ms, then fails with the spec\'s words', () => {
  it('is settled by the answer with its request id, and only by that one', async () => {
    const requests = createFrameRequests('f1');
    const posted: string[] = [];
    const answer = requests.ask((id) => posted.push(id));
    requests.answered('f1.99', 'not mine');
    requests.answered(posted[0]!, ['g/1']);
    await expect(answer).resolves.toEqual(['g/1']);
  });

  it("fails with 'request timed out' after FRAME_REQUEST_TIMEOUT_MS, not before", async () => {
    vi.useFakeTimers();
    expect(FRAME_REQUEST_TIMEOUT_MS).toBe(10_000);
    const requests = createFrameRequests('f1');
    let error: Error | undefined;
    const answer = requests.ask(() => undefined).catch((err: Error) => (error = err));
    await vi.advanceTimersByTimeAsync(FRAME_REQUEST_TIMEOUT_MS - 1);
    expect(error).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await answer;
    expect(error?.message).toBe(MESSAGES.requestTimedOut);
    expect(MESSAGES.requestTimedOut).toBe('request timed out');
  });
});

describe('guides §9 frame connect retries: first 10 ms, doubling to 10,000 ms, 21 retries', () => {
  it('are the delays a frame that has heard from no other waits before announcing itself again', () => {
    expect(FRAME_CONNECT_RETRY).toEqual({ firstMs: 10, maxMs: 10_000, retries: 21 });
    const delays = frameConnectDelays();
    expect(delays).toHaveLength(21);
    expect(delays.slice(0, 11)).toEqual([10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120, 10_000]);
    expect(new Set(delays.slice(10, 20))).toEqual(new Set([10_000]));
  });

  it('analytics §9 frame message wait 120000: the retries end 120,000 ms after joining, the last one shortened', () => {
    expect(FRAME_MESSAGE_WAIT_MS).toBe(120_000);
    const delays = frameConnectDelays();
    expect(delays.reduce((a, b) => a + b, 0)).toBe(120_000);
    expect(delays.at(-1)).toBe(9_770);
    // A shorter wait ends the retries sooner.
    expect(frameConnectDelays(FRAME_CONNECT_RETRY, 1000)).toEqual([10, 20, 40, 80, 160, 320, 370]);
  });
});

describe('analytics §7: the guide messages between frames are checked before use', () => {
  const read = (data: Record<string, unknown>) => readFrameMessage({ waymark: 'k', ...data }, 'k');
  it('takes each well-formed message', () => {
    expect(read({ type: 'receiveGuideList', frameId: 'a', steps: [step('1')] })).toEqual({ ok: true, message: { type: 'receiveGuideList', frameId: 'a', steps: [step('1')] } });
    expect(read({ type: 'checkFrameEligibility', frameId: 'a', requestId: 'a.1' })?.ok).toBe(true);
    expect(read({ type: 'showGuideStepInFrame', frameId: 'a', requestId: 'a.2', guideId: 'g', stepId: '1' })?.ok).toBe(true);
    expect(read({ type: 'stepActionInFrame', frameId: 'a', requestId: 'a.3', action: { guideId: 'g', stepId: '1', action: 'seen', url: 'u' } })?.ok).toBe(true);
    expect(read({ type: 'frameResponse', frameId: 'a', requestId: 'a.3', value: true })?.ok).toBe(true);
    expect(read({ type: 'receiveLastGuideStepSeen', frameId: 'a', guideId: 'g', stepId: '1' })?.ok).toBe(true);
    expect(read({ type: 'receiveThrottlingState', frameId: 'a', timestamps: { latestDismissedAutoAt: 5 } })?.ok).toBe(true);
    expect(read({ type: 'receiveOptions', frameId: 'a', guidesPaused: true })?.ok).toBe(true);
    expect(read({ type: 'receiveStartPreview', frameId: 'a', active: false })?.ok).toBe(true);
  });
  it('ignores a malformed one (as anything a host may post)', () => {
    expect(read({ type: 'receiveGuideList', frameId: 'a', steps: [{ guideId: 'g' }] })).toBeNull();
    expect(read({ type: 'checkFrameEligibility', frameId: 'a' })).toBeNull();
    expect(read({ type: 'showGuideStepInFrame', requestId: 'r', guideId: 'g', stepId: '1' })).toBeNull();
    expect(read({ type: 'stepActionInFrame', frameId: 'a', requestId: 'r', action: 'dismiss' })).toBeNull();
    expect(read({ type: 'receiveThrottlingState', frameId: 'a', timestamps: { latestDismissedAutoAt: 'soon' } })).toBeNull();
    expect(read({ type: 'receiveOptions', frameId: 'a', guidesPaused: 'yes' })).toBeNull();
  });
});

/** Two frames wired to each other through fake windows: the top (leader) and a child (follower). */
function tab(childGuides: Partial<FramedGuides>, topGuides: Partial<FramedGuides> = {}) {
  const inbox: Array<{ to: 'top' | 'child'; message: FrameMessage }> = [];
  const windows = { top: {} as MessageEventSource, child: {} as MessageEventSource };
  const logs: string[] = [];
  const changed = { top: 0, child: 0 };
  const make = (id: 'top' | 'child', guides: Partial<FramedGuides>) => {
    const other = id === 'top' ? 'child' : 'top';
    const peer: FramePeer = { id: other, source: windows[other] };
    return createFrameGuides({
      selfId: id,
      isLeader: () => id === 'top',
      leaderPeer: () => (id === 'child' ? { id: 'top', source: windows.top } : null),
      leaderId: () => 'top',
      peers: () => [peer],
      post: (to, message) => inbox.push({ to: to === windows.top ? 'top' : 'child', message }),
      requests: createFrameRequests(id, 1000),
      guides: () => guides as FramedGuides,
      changed: () => changed[id]++,
      shownElsewhere: () => null,
      log: (level, message) => logs.push(`${id} ${level} ${message}`),
    });
  };
  const frames = { top: make('top', topGuides), child: make('child', childGuides) };
  /** Delivers what was posted, until nothing is left (each message as its own task). */
  async function deliver(): Promise<FrameMessage[]> {
    const seen: FrameMessage[] = [];
    for (let i = 0; i < 50; i++) {
      await new Promise((r) => setTimeout(r, 0));
      const batch = inbox.splice(0);
      if (!batch.length && i > 3) break;
      for (const { to, message } of batch) {
        seen.push(message);
        frames[to].receive(message, { id: to === 'top' ? 'child' : 'top', source: windows[to === 'top' ? 'child' : 'top'] });
      }
    }
    return seen;
  }
  return { frames, deliver, logs, changed, inbox };
}

describe('issue #18: the leader decides, the frame renders', () => {
  it('the leader sends its unplaced steps once, checks which the child can show, and asks it to show the first of them', async () => {
    const shown: string[] = [];
    const t = tab({
      placeable: (steps) => steps.filter((s) => s.stepId === '2').map((s) => `${s.guideId}/${s.stepId}`),
      showForLeader: async (s) => (shown.push(`${s.stepId} via ${s.viaFrame}`), true),
    });
    t.frames.top.unplaced([step('1'), step('2')]);
    const first = await t.deliver();
    expect(first.map((m) => m.type)).toEqual(['receiveGuideList', 'checkFrameEligibility', 'frameResponse']);
    expect(t.changed.top).toBe(1);
    // The same list again: not sent again; only checked.
    t.frames.top.unplaced([step('1'), step('2')]);
    expect((await t.deliver()).map((m) => m.type)).toEqual(['checkFrameEligibility', 'frameResponse']);
    // The loop's next pass: step 1 is nowhere, step 2 is in the child.
    expect(t.frames.top.place(step('1'))).toBe(false);
    expect(t.frames.top.place(step('2'))).toBe(true);
    // While that show is on its way, the loop waits.
    expect(t.frames.top.place(step('2'))).toBe(true);
    expect((await t.deliver()).map((m) => m.type)).toEqual(['showGuideStepInFrame', 'frameResponse']);
    expect(shown).toEqual(['2 via top']);
  });

  it('one guide in the tab at a time: a child shows its own auto step once the leader grants it, and the leader then waits', async () => {
    const t = tab({}, { idle: () => true });
    expect(t.frames.child.mayShow()).toBe(false);
    expect(t.frames.child.mayShow()).toBe(false); // one claim on its way, not two
    const sent = await t.deliver();
    expect(sent.map((m) => m.type)).toEqual(['claimGuideDisplay', 'frameResponse']);
    expect(t.changed.child).toBe(1);
    expect(t.frames.child.mayShow()).toBe(true);
    // The top, which granted it, does not show an auto step of its own meanwhile.
    expect(t.frames.top.mayShow()).toBe(false);

    // A leader that shows a step itself grants nothing.
    const busy = tab({}, { idle: () => false });
    expect(busy.frames.child.mayShow()).toBe(false);
    await busy.deliver();
    expect(busy.frames.child.mayShow()).toBe(false);
    expect(busy.changed.child).toBe(0);
  });

  it("a child's action on the leader's step goes to the leader's worker; the child shows a next step only when its element is there", async () => {
    const acted: string[] = [];
    let here = false;
    const t = tab({ hasTarget: () => here }, { act: async (a) => (acted.push(`${a.action} ${a.stepId}`), ok(step('2'))) });
    const seen = t.frames.child.act('top', { guideId: 'g', stepId: '1', action: 'seen', url: 'u' });
    const elsewhere = t.frames.child.act('top', { guideId: 'g', stepId: '1', action: 'advance', url: 'u' });
    await t.deliver();
    here = true;
    const inChild = t.frames.child.act('top', { guideId: 'g', stepId: '1', action: 'advance', url: 'u' });
    await t.deliver();
    expect(acted).toEqual(['seen 1', 'advance 1', 'advance 1']);
    expect(await seen).toEqual(ok(step('2')));
    expect(await elsewhere).toEqual(ok(null));
    expect(await inChild).toEqual(ok({ ...step('2'), viaFrame: 'top' }));
    // Not the leader any more: refused at once.
    expect((await t.frames.child.act('other', { guideId: 'g', stepId: '1', action: 'dismiss', url: 'u' })).ok).toBe(false);
  });

  it("a child that never answers: the leader logs 'request timed out' and stops asking it to show", async () => {
    const t = tab({ placeable: (steps) => steps.map((s) => `${s.guideId}/${s.stepId}`) });
    t.frames.top.unplaced([step('1')]);
    await t.deliver();
    expect(t.frames.top.place(step('1'))).toBe(true);
    t.inbox.splice(0); // the child's window went away without a word
    await new Promise((r) => setTimeout(r, 1100));
    expect(t.logs).toContain(`top warn frame child showGuideStepInFrame: ${MESSAGES.requestTimedOut}`);
    expect(t.frames.top.place(step('1'))).toBe(false);
  });

  it('a guide moved on: the other frames drop its steps and merge the throttling timestamps; the leader holds its followers', async () => {
    const dropped: string[] = [];
    const merged: unknown[] = [];
    const holds: string[] = [];
    const t = tab({ drop: (g, st) => dropped.push(`${g}/${st}`), throttle: (ts) => merged.push(ts), hold: (r, h) => holds.push(`${r} ${h}`) });
    t.frames.top.moved('g', '1');
    t.frames.top.throttled({ latestDismissedAutoAt: 42 });
    t.frames.top.moved('h', '1');
    t.frames.top.throttled({});
    t.frames.top.options(true);
    t.frames.top.preview(true);
    await t.deliver();
    expect(dropped).toEqual(['g/1', 'h/1']);
    expect(merged).toEqual([{ latestDismissedAutoAt: 42 }]);
    expect(holds).toEqual(['options true', 'preview true']);
  });

  it('a frame takes no list, check, show or hold from a frame that does not lead', async () => {
    const calls: string[] = [];
    const t = tab({}, {
      placeable: () => (calls.push('placeable'), ['g/1']),
      showForLeader: async () => (calls.push('show'), true),
      hold: (r) => calls.push(`hold ${r}`),
    });
    // The child does not lead: what it would send as a leader, it does not send.
    t.frames.child.options(true);
    t.frames.child.unplaced([step('1')]);
    expect(await t.deliver()).toEqual([]);
    // Forged as if it did, towards the top (which leads): the top takes none of it; the requests get empty answers.
    const child: FramePeer = { id: 'child', source: {} as MessageEventSource };
    t.frames.top.receive({ type: 'receiveGuideList', frameId: 'child', steps: [step('1')] }, child);
    t.frames.top.receive({ type: 'checkFrameEligibility', frameId: 'child', requestId: 'child.1' }, child);
    t.frames.top.receive({ type: 'showGuideStepInFrame', frameId: 'child', requestId: 'child.2', guideId: 'g', stepId: '1' }, child);
    t.frames.top.receive({ type: 'receiveOptions', frameId: 'child', guidesPaused: true }, child);
    t.frames.top.receive({ type: 'receiveStartPreview', frameId: 'child', active: true }, child);
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toEqual([]);
    expect(t.inbox.map((m) => m.message)).toEqual([
      { type: 'frameResponse', frameId: 'top', requestId: 'child.1', value: [] },
      { type: 'frameResponse', frameId: 'top', requestId: 'child.2', value: false },
    ]);
  });
});
