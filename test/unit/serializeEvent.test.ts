import { describe, expect, it } from 'vitest';
import { createClickSource } from '../../bench/createClickSource';
import { applyUrlTransforms, type UrlTransform } from '../../shared/privacy/applyUrlTransforms';
import { expandElementPath, type ElementPath } from '../../shared/events/elementPath';
import { enrichEvent, type EnvelopeContext } from '../../shared/events/enrichEvent';
import type { CapturedEvent } from '../../shared/events/events';
import { createEventPreparer } from '../../shared/events/prepareEvent';
import { compilePrivacyFilter, redact } from '../../shared/privacy/privacyFilter';
import { createEventSerializer } from '../../shared/events/serializeEvent';

const CTX: EnvelopeContext = {
  identity: { visitorId: 'visitor-1', accountId: 'acme' },
  session: { sessionId: 'S'.repeat(16), tabId: 'tab-1', frameId: 'frame-1', parentTabId: '' },
  utm: { channel: 'Direct' },
};

/**
 * The wire event as wire-protocol.md describes it, built the plain way: the nested target record, every
 * string value (never a key) through the privacy filter, then one JSON.stringify with `bytes` last.
 */
function reference(captured: CapturedEvent, ctx: EnvelopeContext, transforms: UrlTransform[], filters: RegExp[]): string {
  const url = transforms.length ? applyUrlTransforms(captured.url, transforms) : captured.url;
  const props = captured.element ? { target: expandElementPath(captured.element), ...captured.props } : captured.props;
  const event: Record<string, unknown> = {
    type: captured.type,
    browser_time: captured.time,
    visitor_id: ctx.identity.visitorId,
    account_id: ctx.identity.accountId,
    url: redact(url, filters),
    props: redact(props, filters),
    sequence: captured.sequence,
    sessionId: ctx.session.sessionId,
    tabId: ctx.session.tabId,
    frameId: ctx.session.frameId,
    parentTabId: ctx.session.parentTabId,
    utm: ctx.utm,
  };
  if (captured.trackEventName !== undefined) event.track_event_name = captured.trackEventName;
  if (captured.trackEventType !== undefined) event.track_event_type = captured.trackEventType;
  const body = JSON.stringify(event);
  return `${body.slice(0, -1)},"bytes":${body.length}}`;
}

const EMAIL = compilePrivacyFilter(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/)!;
const TRANSFORMS: UrlTransform[] = [
  { attr: 'search', action: 'ExcludeKeys', data: ['session_token'] },
  { attr: 'hash', action: 'Clear' },
];

const click = (element: ElementPath, props: Record<string, unknown> = { flags: ['left'] }): CapturedEvent => ({
  type: 'click', sequence: 7, time: 1_795_000_000_000, url: 'https://app.example/r?session_token=x&q=ann@example.com#top', props, element,
});

describe('createEventSerializer writes what the plain wire object stringifies to', () => {
  it('matches the reference on 2,000 realistic clicks, with and without a host privacy filter', () => {
    const events = createClickSource({ seed: 3, clicksPerPage: 40 })(2000);
    for (const filters of [[], EMAIL]) {
      const prepare = createEventPreparer({ urlTransforms: TRANSFORMS, privacyFilters: filters });
      let redacted = 0;
      for (const e of events) {
        const json = prepare(e, CTX);
        expect(json).toBe(reference(e, CTX, TRANSFORMS, filters));
        if (json.includes('redacted')) redacted++;
      }
      // The filter did something on this workload (so the comparison covered redaction), and only with it.
      if (filters.length) expect(redacted).toBeGreaterThan(100);
      else expect(redacted).toBe(0);
    }
  });

  it('keeps text, nulls, escapes, unicode and attribute names (never redacted) as the plain way does', () => {
    const serialize = createEventSerializer(EMAIL);
    const path: ElementPath = [
      'Mail "bob@x.io"\n\u2028 ☃ \ud83d\ude00',
      'A', 'link', 'btn\\primary', null, 2, 'href', 'mailto:bob@x.io', 'data-bob@x.io', 'v', 0, 3,
      'DIV', null, null, 'Tip: ann@y.org', 0, 1, 1,
      'BODY', '', '', null, 0, 0, 1,
    ];
    const e = click(path, { flags: ['left'], note: { who: 'cy@z.net', n: 1, list: ['dy@z.net', null] } });
    const json = serialize(e, CTX);
    expect(json).toBe(reference(e, CTX, [], EMAIL));
    const wire = JSON.parse(json);
    expect(wire.props.target.attrs).toEqual({ href: 'mailto:redacted', 'data-bob@x.io': 'v' });
    expect(wire.props.target.txt).toBe('Mail "redacted"\n\u2028 ☃ \ud83d\ude00');
    expect(wire.bytes).toBe(json.length - `,"bytes":${wire.bytes}`.length);
  });

  it('handles truncated and empty paths, a props target, track fields and an absent account', () => {
    const serialize = createEventSerializer([]);
    const ctx: EnvelopeContext = { ...CTX, identity: { visitorId: 'v', accountId: undefined as unknown as string } };
    const cases: CapturedEvent[] = [
      click([null]),
      click([null, 'A', '', '', null, 0, 0, 0, 'DIV', 'x']),
      click([null, 'A', '', '', null, 0, 0, 0], { flags: ['left'], target: 'mine' }),
      click([null, 'A', '', '', null, 0, 0, 0], {}),
      { type: 'track', sequence: 1, time: 2, url: '', props: { target: 1, a: undefined }, trackEventName: 'saved', trackEventType: 'ui' },
      { type: 'load', sequence: 0, time: 3, url: 'https://a.example/', props: { load_time: 12.5 } },
    ];
    for (const e of cases) expect(serialize(e, ctx)).toBe(reference(e, ctx, [], []));
  });

  it('filters any props a host tracks as the plain way does, plain data or not', () => {
    const serialize = createEventSerializer(EMAIL);
    let deep: Record<string, unknown> = { leaf: 'deep@x.io' };
    for (let i = 0; i < 40; i++) deep = { next: deep };
    const propsCases: Array<Record<string, unknown>> = [
      { a: 'ann@x.io', n: -0, inf: Infinity, nan: NaN, t: true, f: false, nil: null, u: undefined, fn: () => 1 },
      { list: ['ann@x.io', undefined, () => 1, [1, ['bob@y.org']]], nested: { 'key@x.io': 'v', empty: {} } },
      { when: new Date(0), map: new Map([['k', 'v']]), mixed: [new Date(1), 'cy@z.net'] },
      { custom: { toJSON: () => 'dy@z.net' } },
      Object.assign(Object.create(null) as Record<string, unknown>, { bare: 'ed@z.net' }),
      deep,
      {},
    ];
    for (const props of propsCases) {
      const e: CapturedEvent = { type: 'track', sequence: 1, time: 2, url: 'https://a.example/', props, trackEventName: 'x' };
      expect(serialize(e, CTX)).toBe(reference(e, CTX, [], EMAIL));
    }
    const cyclic: Record<string, unknown> = { a: 'ann@x.io' };
    cyclic.self = cyclic;
    expect(() => serialize({ type: 'track', sequence: 1, time: 2, url: '', props: cyclic, trackEventName: 'x' }, CTX)).toThrow(TypeError);
  });

  it('follows a new identity, session or campaign handed over between events', () => {
    const serialize = createEventSerializer([]);
    const e = click([null, 'BUTTON', 'b', '', null, 0, 0, 0]);
    expect(serialize(e, CTX)).toBe(reference(e, CTX, [], []));
    const changed: EnvelopeContext = {
      identity: { visitorId: 'visitor-2', accountId: 'beta' },
      session: { ...CTX.session, sessionId: 'T'.repeat(16) },
      utm: { channel: 'Paid Search', source: 'google' },
    };
    expect(serialize(e, changed)).toBe(reference(e, changed, [], []));
    expect(JSON.parse(serialize(e, changed))).toMatchObject({ visitor_id: 'visitor-2', sessionId: 'T'.repeat(16), utm: { channel: 'Paid Search' } });
  });

  it('agrees with enrichEvent, the shim\'s plain path, when there are no filters', () => {
    const serialize = createEventSerializer([]);
    for (const e of createClickSource({ seed: 9 })(200)) expect(serialize(e, CTX)).toBe(enrichEvent(e, CTX).json);
  });
});
