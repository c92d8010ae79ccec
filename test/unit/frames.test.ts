/**
 * Frames (analytics §3 Frame record, §4 Frames, §7 cross-window messages, §8 frame messaging errors, §9 constants;
 * guides §4 frame visibility): the pure leader election, the message check and the visibility rules.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FRAME_LEADER_ELECTION_MS, FRAME_VISIBILITY_WAIT_MS, IFRAME_RESCAN_MS } from '../../shared/constants';
import { electLeaderFrame, type FrameRecord } from '../../shared/frames/electLeaderFrame';
import { frameVisibility, mayShowGuidesInFrame } from '../../shared/frames/frameVisibility';
import { MESSAGES } from '../../shared/messages';
import { FRAME_MESSAGE_TYPES, readFrameMessage } from '../../shared/frames/readFrameMessage';

/** The spec's text where this checkout sits beside it; else the lines these tests need, as the spec words them. */
const SPEC_FILE = '/work/shared/spec/analytics-spec.txt';
const analyticsSpec = existsSync(SPEC_FILE)
  ? readFileSync(SPEC_FILE, 'utf8')
  : [
      '- Cross-window messages for frame coordination carry a type field: receiveGuideList, receiveFrame, removeFrame, showGuideStepInFrame, receiveGuideStepShownInFrame, receiveHideGuides, receiveLastGuideStepSeen, receiveThrottlingState, receiveStartPreview, receiveIdentity, receiveOptions, receiveFrameVisibility, plus a frame eligibility check with a timeout.',
      "- Frame messaging: 'Failed to postMessage', 'Invalid Message: Missing type'.",
      "- 'Unable to find agent url to install agent in frames' is a debug message.",
      '- Frame leader election 50 ms; iframe rescan 250 ms; frame message wait 120000 default; clone timer 10 s; segment flag debounce 50 ms.',
    ].join('\n');

const frame = (id: string, over: Partial<FrameRecord> = {}): FrameRecord => ({
  id,
  apiKey: 'k',
  leaderKey: '',
  isTop: false,
  joinedAt: 1000,
  visibility: 'unknown',
  agentInstallType: 'snippet',
  ...over,
});

describe('analytics §4 Frames: leader election', () => {
  it('a configured leader key wins over the top frame and an earlier frame', () => {
    const frames = [frame('top', { isTop: true, joinedAt: 1 }), frame('early', { joinedAt: 2 }), frame('editor', { leaderKey: 'editor', joinedAt: 9 })];
    expect(electLeaderFrame(frames, ['editor'])?.id).toBe('editor');
  });

  it('leader keys are preferred in the order configured', () => {
    const frames = [frame('a', { leaderKey: 'second', joinedAt: 1 }), frame('b', { leaderKey: 'first', joinedAt: 5 })];
    expect(electLeaderFrame(frames, ['first', 'second'])?.id).toBe('b');
    expect(electLeaderFrame(frames, ['second', 'first'])?.id).toBe('a');
  });

  it('a leader key that is not configured counts for nothing: the top frame leads', () => {
    const frames = [frame('editor', { leaderKey: 'editor', joinedAt: 1 }), frame('top', { isTop: true, joinedAt: 5 })];
    expect(electLeaderFrame(frames, [])?.id).toBe('top');
    expect(electLeaderFrame(frames, ['other'])?.id).toBe('top');
  });

  it('without leader keys or a top frame, the earliest joined leads', () => {
    const frames = [frame('late', { joinedAt: 30 }), frame('first', { joinedAt: 10 }), frame('mid', { joinedAt: 20 })];
    expect(electLeaderFrame(frames)?.id).toBe('first');
  });

  it('ties (same key, same joinedAt) go to the smallest id, whatever the order the records come in', () => {
    const a = frame('aaa', { leaderKey: 'x', joinedAt: 5 });
    const b = frame('bbb', { leaderKey: 'x', joinedAt: 5 });
    expect(electLeaderFrame([a, b], ['x'])?.id).toBe('aaa');
    expect(electLeaderFrame([b, a], ['x'])?.id).toBe('aaa');
    expect(electLeaderFrame([frame('z', { joinedAt: 5 }), frame('y', { joinedAt: 5 })])?.id).toBe('y');
  });

  it('among frames with the same leader key, the top frame, then the earliest', () => {
    const frames = [frame('child', { leaderKey: 'x', joinedAt: 1 }), frame('top', { leaderKey: 'x', isTop: true, joinedAt: 9 }), frame('other', { leaderKey: 'x', joinedAt: 0 })];
    expect(electLeaderFrame(frames, ['x'])?.id).toBe('top');
  });

  it('no frames, no leader', () => {
    expect(electLeaderFrame([], ['x'])).toBeNull();
  });
});

describe('analytics §7, §8 frame messages', () => {
  it('the types are the spec\'s list, spelled as it spells them', () => {
    const listed = /carry a type field: ([^.]+?), plus a frame eligibility check/.exec(analyticsSpec)![1]!.split(', ');
    expect([...FRAME_MESSAGE_TYPES]).toEqual(listed);
  });

  it('a message without our api key in `waymark` is not ours: ignored', () => {
    expect(readFrameMessage({ type: 'receiveHideGuides', frameId: 'f' }, 'k')).toBeNull();
    expect(readFrameMessage({ waymark: 'other', type: 'receiveHideGuides', frameId: 'f' }, 'k')).toBeNull();
    expect(readFrameMessage('receiveHideGuides', 'k')).toBeNull();
    expect(readFrameMessage(null, 'k')).toBeNull();
  });

  it('ours without a type: \'Invalid Message: Missing type\'', () => {
    expect(readFrameMessage({ waymark: 'k' }, 'k')).toEqual({ ok: false, problem: 'Invalid Message: Missing type' });
    expect(readFrameMessage({ waymark: 'k', type: '' }, 'k')).toEqual({ ok: false, problem: MESSAGES.missingType });
  });

  it('reads each message Waymark sends, and ignores malformed ones and types it does not handle', () => {
    const record = frame('f1', { apiKey: 'k', leaderKey: 'editor', isTop: true, joinedAt: 5, visibility: 'visible' });
    expect(readFrameMessage({ waymark: 'k', type: 'receiveFrame', frame: { ...record, extra: 1 } }, 'k')).toEqual({ ok: true, message: { type: 'receiveFrame', frame: record } });
    expect(readFrameMessage({ waymark: 'k', type: 'receiveFrame', frame: { ...record, apiKey: 'other' } }, 'k')).toBeNull();
    expect(readFrameMessage({ waymark: 'k', type: 'receiveFrame', frame: { ...record, visibility: 'maybe' } }, 'k')).toBeNull();
    // analytics §3 agentInstallType: each of ours kept; a frame whose agent does not say (or says something else) is 'unknown'.
    for (const agentInstallType of ['snippet', 'npm', 'frame'] as const) {
      expect(readFrameMessage({ waymark: 'k', type: 'receiveFrame', frame: { ...record, agentInstallType } }, 'k')).toEqual({ ok: true, message: { type: 'receiveFrame', frame: { ...record, agentInstallType } } });
    }
    const { agentInstallType: _, ...older } = record;
    expect(readFrameMessage({ waymark: 'k', type: 'receiveFrame', frame: older }, 'k')).toEqual({ ok: true, message: { type: 'receiveFrame', frame: { ...record, agentInstallType: 'unknown' } } });
    expect(readFrameMessage({ waymark: 'k', type: 'receiveFrame', frame: { ...record, agentInstallType: 'extension' } }, 'k')).toMatchObject({ message: { frame: { agentInstallType: 'unknown' } } });
    expect(readFrameMessage({ waymark: 'k', type: 'removeFrame', frameId: 'f1' }, 'k')).toEqual({ ok: true, message: { type: 'removeFrame', frameId: 'f1' } });
    expect(readFrameMessage({ waymark: 'k', type: 'receiveIdentity', frameId: 'f1', visitorId: 'v', accountId: '' }, 'k'))
      .toEqual({ ok: true, message: { type: 'receiveIdentity', frameId: 'f1', visitorId: 'v', accountId: '' } });
    expect(readFrameMessage({ waymark: 'k', type: 'receiveIdentity', frameId: 'f1', visitorId: '', accountId: '' }, 'k')).toBeNull();
    expect(readFrameMessage({ waymark: 'k', type: 'receiveFrameVisibility', visibility: 'hidden' }, 'k')).toEqual({ ok: true, message: { type: 'receiveFrameVisibility', visibility: 'hidden' } });
    expect(readFrameMessage({ waymark: 'k', type: 'receiveFrameVisibility', visibility: 'unknown' }, 'k')).toBeNull();
    expect(readFrameMessage({ waymark: 'k', type: 'receiveGuideStepShownInFrame', frameId: 'f1', guideId: 'g', stepId: 's' }, 'k'))
      .toEqual({ ok: true, message: { type: 'receiveGuideStepShownInFrame', frameId: 'f1', guideId: 'g', stepId: 's' } });
    expect(readFrameMessage({ waymark: 'k', type: 'receiveHideGuides', frameId: 'f1' }, 'k')).toEqual({ ok: true, message: { type: 'receiveHideGuides', frameId: 'f1' } });
    expect(readFrameMessage({ waymark: 'k', type: 'receiveGuideList' }, 'k')).toBeNull();
    expect(readFrameMessage({ waymark: 'k', type: 'hostMessage' }, 'k')).toBeNull();
  });

  it('analytics §4 leader election: a record whose joinedAt is not a finite epoch is ignored (issue #31 fuzzing)', () => {
    // With a NaN the records have no order: three frames holding them in their own order elected three leaders.
    const records = [frame('c', { isTop: true, joinedAt: NaN }), frame('e', { isTop: true, joinedAt: 0 }), frame('a', { isTop: true, joinedAt: 1 })];
    const leaders = new Set([0, 1, 2].map((i) => electLeaderFrame([...records.slice(i), ...records.slice(0, i)])?.id));
    expect(leaders.size).toBeGreaterThan(1);
    for (const joinedAt of [NaN, Infinity, -Infinity, '5']) {
      expect(readFrameMessage({ waymark: 'k', type: 'receiveFrame', frame: frame('f1', { apiKey: 'k', joinedAt: joinedAt as number }) }, 'k')).toBeNull();
    }
    expect(readFrameMessage({ waymark: 'k', type: 'receiveFrame', frame: frame('f1', { apiKey: 'k', joinedAt: 0 }) }, 'k')?.ok).toBe(true);
  });

  it('guides §3 throttling timestamps from another frame: the three names, each a finite epoch, or the message is ignored (issue #31 fuzzing)', () => {
    const read = (timestamps: unknown) => readFrameMessage({ waymark: 'k', type: 'receiveThrottlingState', frameId: 'a', timestamps }, 'k');
    expect(read({ latestDismissedAutoAt: 5, latestSnoozedAutoAt: 6, finalAdvancedAutoAt: 7 })?.ok).toBe(true);
    expect(read({})?.ok).toBe(true);
    // The worker merges what comes and keeps it: an Infinity held its slot for good, another name was stored.
    expect(read({ latestDismissedAutoAt: Infinity })).toBeNull();
    expect(read({ latestSnoozedAutoAt: NaN })).toBeNull();
    expect(read({ latestDismissedAutoAt: 5, nextShowAt: 6 })).toBeNull();
    expect(read([])).toBeNull();
  });

  it('the messages are the spec\'s words', () => {
    const frameMessages = { postMessageFailed: MESSAGES.postMessageFailed, missingType: MESSAGES.missingType, noAgentUrl: MESSAGES.noAgentUrl };
    expect(frameMessages).toEqual({
      postMessageFailed: 'Failed to postMessage',
      missingType: 'Invalid Message: Missing type',
      noAgentUrl: 'Unable to find agent url to install agent in frames',
    });
    for (const text of Object.values(frameMessages)) expect(analyticsSpec).toContain(`'${text}'`);
  });
});

describe('analytics §9 frame constants', () => {
  it('leader election 50 ms, iframe rescan 250 ms', () => {
    expect(analyticsSpec).toContain('Frame leader election 50 ms; iframe rescan 250 ms');
    expect(FRAME_LEADER_ELECTION_MS).toBe(50);
    expect(IFRAME_RESCAN_MS).toBe(250);
  });
});

describe('guides §4 frame visibility', () => {
  it('an iframe element is hidden when it has no size or is wholly out of view, else visible', () => {
    expect(frameVisibility({ width: 0, height: 0, intersecting: false })).toBe('hidden'); // display: none
    expect(frameVisibility({ width: 300, height: 0, intersecting: true })).toBe('hidden');
    expect(frameVisibility({ width: 300, height: 200, intersecting: false })).toBe('hidden'); // scrolled away
    expect(frameVisibility({ width: 300, height: 200, intersecting: true })).toBe('visible');
  });

  it('a hidden frame shows no guide; a child of unknown visibility waits FRAME_VISIBILITY_WAIT_MS; the top frame never waits', () => {
    expect(mayShowGuidesInFrame({ isTop: false, visibility: 'hidden' }, 1e9)).toBe(false);
    expect(mayShowGuidesInFrame({ isTop: false, visibility: 'visible' }, 0)).toBe(true);
    expect(mayShowGuidesInFrame({ isTop: false, visibility: 'unknown' }, FRAME_VISIBILITY_WAIT_MS - 1)).toBe(false);
    expect(mayShowGuidesInFrame({ isTop: false, visibility: 'unknown' }, FRAME_VISIBILITY_WAIT_MS)).toBe(true);
    expect(mayShowGuidesInFrame({ isTop: true, visibility: 'unknown' }, 0)).toBe(true);
  });
});
