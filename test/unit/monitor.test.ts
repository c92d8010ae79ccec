/**
 * analytics §9 "monitoring flush 300000 ms": the health report (worker/createMonitor.ts) and what the worker's
 * parts count into it (the send queue, the guide list request, the worker's log).
 */
import { describe, expect, it } from 'vitest';
import { MONITOR_FLUSH_MS, type MonitorReport } from '../../shared/wire/monitorReport';
import { createMonitor } from '../../worker/createMonitor';
import { createSendQueue } from '../../worker/createSendQueue';
import { requestGuideList } from '../../worker/requestGuideList';
import { createWorkerApi } from '../../worker/createWorkerApi';
import { createFakeClock, createFakeTransport, engineInit, queryOf } from './fakes';

function setup() {
  const clock = createFakeClock();
  const transport = createFakeTransport();
  let visitorId = 'v-1';
  const monitor = createMonitor({
    apiKey: 'key 1',
    dataHost: 'http://127.0.0.1:1',
    agentVersion: '9.9.9',
    current: () => ({ visitorId, sessionId: 's'.repeat(16) }),
    ports: { clock, transport },
  });
  const reports = () => transport.requests.filter((r) => r.url.includes('/data/monitor'));
  const bodies = () => reports().map((r) => JSON.parse(r.body!) as MonitorReport);
  return { clock, transport, monitor, reports, bodies, identify: (id: string) => (visitorId = id) };
}

describe('analytics §9 monitoring flush', () => {
  it('sends what was counted every 300000 ms, not before, as POST /data/monitor?apiKey= JSON', async () => {
    expect(MONITOR_FLUSH_MS).toBe(300000);
    const { clock, monitor, reports, bodies, identify } = setup();
    const start = clock.now();
    monitor.add('eventsSent', 12);
    monitor.add('beaconsFailed');
    monitor.add('errors');
    await clock.advance(MONITOR_FLUSH_MS - 1);
    expect(reports()).toHaveLength(0);
    await clock.advance(1);
    expect(reports()).toHaveLength(1);
    expect(reports()[0]).toMatchObject({ method: 'POST', url: 'http://127.0.0.1:1/data/monitor?apiKey=key%201', contentType: 'application/json' });
    expect(bodies()[0]).toEqual({
      version: '9.9.9',
      visitorId: 'v-1',
      sessionId: 's'.repeat(16),
      from: start,
      to: start + MONITOR_FLUSH_MS,
      counts: { eventsSent: 12, beaconsFailed: 1, eventsDropped: 0, guideLoads: 0, guideLoadFailures: 0, errors: 1, warnings: 0 },
    });
    // The next period starts where this one ended, under the visitor of the moment.
    identify('v-2');
    monitor.add('guideLoads');
    await clock.advance(MONITOR_FLUSH_MS);
    expect(bodies()[1]).toMatchObject({ visitorId: 'v-2', from: start + MONITOR_FLUSH_MS, to: start + 2 * MONITOR_FLUSH_MS, counts: { eventsSent: 0, guideLoads: 1 } });
  });

  it('an idle page sends nothing: a report goes only when something was counted', async () => {
    const { clock, monitor, reports } = setup();
    await clock.advance(3 * MONITOR_FLUSH_MS);
    await monitor.flush();
    expect(reports()).toHaveLength(0);
  });

  it('flush sends at once (page hide, flushNow), and the timer goes on from there', async () => {
    const { clock, monitor, bodies } = setup();
    monitor.add('warnings', 2);
    await clock.advance(1000);
    await monitor.flush();
    expect(bodies()).toHaveLength(1);
    expect(bodies()[0]!.counts.warnings).toBe(2);
    await clock.advance(MONITOR_FLUSH_MS);
    expect(bodies()).toHaveLength(1);
  });

  it('a report that does not arrive is added to the next, over the longer period', async () => {
    const { clock, transport, monitor, bodies } = setup();
    const start = clock.now();
    transport.statuses = [503];
    monitor.add('eventsSent', 5);
    await clock.advance(MONITOR_FLUSH_MS);
    expect(bodies()).toHaveLength(1);
    monitor.add('eventsSent', 2);
    await clock.advance(MONITOR_FLUSH_MS);
    expect(bodies()[1]).toMatchObject({ from: start, to: start + 2 * MONITOR_FLUSH_MS, counts: { eventsSent: 7 } });
    // Delivered: the next starts afresh.
    monitor.add('eventsSent', 1);
    await monitor.flush();
    expect(bodies()[2]!.counts.eventsSent).toBe(1);
  });

  it('a report the collector refuses (400) is dropped, not sent again; the clock set back never makes to before from', async () => {
    const { clock, transport, monitor, bodies } = setup();
    transport.statuses = [400];
    monitor.add('errors', 4);
    await monitor.flush();
    monitor.add('errors', 1);
    await monitor.flush();
    expect(bodies().map((b) => b.counts.errors)).toEqual([4, 1]);
    const stepped = clock.now;
    clock.now = () => stepped() - 60_000;
    monitor.add('errors');
    await monitor.flush();
    const last = bodies()[2]!;
    expect(last.to).toBe(last.from);
  });

  it('a network refusal keeps the counts too', async () => {
    const { clock, transport, monitor, bodies } = setup();
    const request = transport.request;
    let refuse = true;
    transport.request = (req) => (refuse ? Promise.reject(new TypeError('Failed to fetch')) : request(req));
    monitor.add('eventsDropped', 3);
    await monitor.flush();
    refuse = false;
    await monitor.flush();
    expect(bodies().map((b) => b.counts.eventsDropped)).toEqual([3]);
  });

  it('a collector that never answers does not hold the page\'s later reports: after 10 s the counts wait for the next', async () => {
    const { clock, transport, monitor, bodies } = setup();
    const request = transport.request;
    let hang = true;
    transport.request = (req) => (hang ? new Promise(() => undefined) : request(req));
    monitor.add('eventsSent', 2);
    void monitor.flush();
    await clock.advance(10_000);
    hang = false;
    monitor.add('eventsSent', 1);
    await monitor.flush();
    expect(bodies().map((b) => b.counts.eventsSent)).toEqual([3]);
  });

  it('a collector without the endpoint (404, one made for the original agent) is not asked again by this page', async () => {
    const { clock, transport, monitor, reports } = setup();
    transport.bodies.push({ match: '/data/monitor', body: 'Not Found', status: 404 });
    monitor.add('eventsSent');
    await monitor.flush();
    monitor.add('eventsSent');
    await monitor.flush();
    await clock.advance(2 * MONITOR_FLUSH_MS);
    expect(reports()).toHaveLength(1);
  });
});

describe('what the worker counts into it', () => {
  it('the send queue: events sent, failed beacon attempts, events given up after the failure cap', async () => {
    const clock = createFakeClock();
    const transport = createFakeTransport();
    const counted: Record<string, number> = {};
    const tally = { add: (name: string, n = 1) => void (counted[name] = (counted[name] ?? 0) + n) };
    transport.statuses = [500, 500];
    const queue = createSendQueue({
      apiKey: 'k',
      dataHost: 'http://127.0.0.1:1',
      endpoint: 'ptm.gif',
      mode: 'get-or-post',
      delayMs: 1000,
      retryPolicy: { maxFailures: 3, baseDelayMs: 1000, exponentCap: 6 },
      ports: { clock, transport, tally },
      log: () => undefined,
    });
    queue.enqueue([{ json: '{"type":"click","sequence":0}', track: false }, { json: '{"type":"click","sequence":1}', track: false }]);
    await clock.advance(10_000);
    expect(counted).toEqual({ beaconsFailed: 2, eventsSent: 2 });
    transport.statuses = [500, 500, 500];
    queue.enqueue([{ json: '{"type":"click","sequence":2}', track: false }]);
    await clock.advance(60_000);
    expect(counted).toEqual({ beaconsFailed: 5, eventsSent: 2, eventsDropped: 1 });
  });

  it('the guide list request: loads answered, loads failed or timed out; a 451 is neither', async () => {
    const clock = createFakeClock();
    const transport = createFakeTransport();
    const counted: Record<string, number> = {};
    const tally = { add: (name: string, n = 1) => void (counted[name] = (counted[name] ?? 0) + n) };
    const ports = { clock, transport, tally };
    const req = { apiKey: 'k', dataHost: 'http://127.0.0.1:1', agentVersion: 't', id: 'x', payload: { visitorId: 'v', url: 'http://h/' } as never };
    transport.bodies.push({ match: 'guide.json', body: '{"guides":[]}' });
    expect((await requestGuideList(ports, req)).kind).toBe('ok');
    transport.bodies[0] = { match: 'guide.json', body: 'gone', status: 500 };
    expect((await requestGuideList(ports, req)).kind).toBe('failed');
    transport.bodies[0] = { match: 'guide.json', body: '', status: 451 };
    expect((await requestGuideList(ports, req)).kind).toBe('denied');
    expect(counted).toEqual({ guideLoads: 1, guideLoadFailures: 1 });
  });

  it('nothing is reported while the agent writes nothing for the visitor (analytics §1 lock): the counts wait for unlock', async () => {
    const clock = createFakeClock();
    const transport = createFakeTransport();
    const api = createWorkerApi({ clock, transport });
    api.init(engineInit(), { log() {}, campaign() {}, segmentFlags() {}, guideState() {} });
    const reports = () => transport.requests.filter((r) => r.url.includes('/data/monitor'));
    api.setSending(false);
    api.reportError({ message: 'while locked' });
    await api.flush();
    await clock.advance(MONITOR_FLUSH_MS);
    expect(reports()).toHaveLength(0);
    api.setSending(true);
    await api.flush();
    expect(reports()).toHaveLength(1);
    expect((JSON.parse(reports()[0]!.body!) as MonitorReport).counts.errors).toBe(1);
  });

  it("the worker's errors and warnings and the shim's reported errors, sent with the page's events at flush", async () => {
    const clock = createFakeClock();
    const transport = createFakeTransport();
    const api = createWorkerApi({ clock, transport });
    api.init(engineInit(), { log() {}, campaign() {}, segmentFlags() {}, guideState() {} });
    api.reportError({ message: 'boom in the page' });
    await api.flush();
    const monitor = transport.requests.filter((r) => r.url.includes('/data/monitor'));
    expect(monitor).toHaveLength(1);
    expect(queryOf(monitor[0]!.url).get('apiKey')).toBe('k');
    expect((JSON.parse(monitor[0]!.body!) as MonitorReport).counts).toMatchObject({ errors: 1 });
  });
});
