/**
 * analytics §1 "A staging or unminified agent script is loaded when the host matches configured staging servers"
 * (issue #17), in Chromium against the reference server: the snippet's staging list names the page's host, so
 * waymark.staging.js (the same agent, not minified) loads instead of waymark.js and the agent works as usual; on
 * a host the list does not name, waymark.js loads.
 */
import { agentReady, expect, hostPage, test, uniqueId, waitForEvents } from './fixtures';

test.describe('issue #17 analytics §1 staging servers', () => {
  test('a host on the snippet\'s staging list loads the unminified waymark.staging.js, and its events are stored; another host loads waymark.js', async ({ page, serverUrl, openHostPage }) => {
    const scripts: string[] = [];
    page.on('request', (r) => void (/\/waymark(\.staging)?\.js$/.test(new URL(r.url()).pathname) && scripts.push(new URL(r.url()).pathname)));
    const host = new URL(serverUrl).host;
    const visitor = uniqueId('staging');
    const staged = hostPage({ init: `waymark.initialize({ apiKey: 'e2e-staging', visitor: { id: '${visitor}' } });`, body: '<button id="b">Go</button>' })
      .replace("'/waymark.js', [])", `'/waymark.js', ['other.example', '${host}'])`);
    expect(staged).toContain(`'${host}'`);
    await openHostPage('/e2e/staging', staged);
    await agentReady(page);
    expect(scripts).toEqual(['/waymark.staging.js']);
    // Not minified: its source keeps the comments and names of ours.
    const source = await (await page.request.get(`${serverUrl}/waymark.staging.js`)).text();
    expect(source).toContain('function createAgent(');
    await page.click('#b');
    await page.evaluate(() => (window as any).waymark.flushNow());
    await waitForEvents(serverUrl, { apiKey: 'e2e-staging', visitorId: visitor }, (e) => e.some((x) => x.type === 'click'));

    scripts.length = 0;
    await openHostPage('/e2e/production', hostPage({ init: `waymark.initialize({ apiKey: 'e2e-staging', visitor: { id: '${uniqueId('prod')}' } });` }).replace("'/waymark.js', [])", "'/waymark.js', ['staging.example.com'])"));
    await agentReady(page);
    expect(scripts).toEqual(['/waymark.js']);
  });
});
