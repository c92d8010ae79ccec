/**
 * A browser by hand for the single sign-on tests (issue #33): real HTTP with fetch, redirects followed one by one,
 * cookies kept per origin and path as a browser keeps them, the provider's forms posted as a person would submit
 * them. It stops at the console's callback, so that a test can answer it, replay it, or send it from another browser.
 */

interface StoredCookie {
  value: string;
  path: string;
}

/** One browser: its cookies, and what it asks. */
export class SsoBrowser {
  private readonly jars = new Map<string, Map<string, StoredCookie>>();

  /** The cookie `name` this browser holds for `origin`, or undefined. */
  cookie(origin: string, name: string): string | undefined {
    return this.jars.get(origin)?.get(name)?.value;
  }

  /** Sets a cookie by hand (a test that carries another browser's cookie). */
  setCookie(origin: string, name: string, value: string, path = '/'): void {
    this.jar(origin).set(name, { value, path });
  }

  /** One request, no redirect followed; the cookies of its answer kept. */
  async request(url: string, init: { method?: 'GET' | 'POST'; form?: Record<string, string> } = {}): Promise<Response> {
    const target = new URL(url);
    const jar = this.jar(target.origin);
    const cookies = [...jar].filter(([, c]) => target.pathname.startsWith(c.path)).map(([name, c]) => `${name}=${c.value}`);
    const headers: Record<string, string> = {};
    if (cookies.length) headers.cookie = cookies.join('; ');
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, { method: init.method ?? 'GET', headers, redirect: 'manual', ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}) });
    for (const line of response.headers.getSetCookie()) this.keep(target, line);
    return response;
  }

  /**
   * Starts a sign-in at `startUrl` and walks the provider (its login form filled with `login`, its consent given)
   * until the provider redirects to `callbackPrefix`: answers that URL, not yet opened. A refusal before the provider
   * (the console's own redirect to its login page) is answered as it is.
   */
  async toCallback(startUrl: string, login: string, callbackPrefix: string): Promise<string> {
    let response = await this.request(startUrl);
    let at = startUrl;
    for (let step = 0; step < 20; step++) {
      if (response.status >= 300 && response.status < 400) {
        at = new URL(response.headers.get('location')!, at).href;
        if (at.startsWith(callbackPrefix) || new URL(at).pathname.startsWith('/console/')) return at;
        response = await this.request(at);
        continue;
      }
      const html = await response.text();
      if (response.status !== 200) throw new Error(`${at} answered ${response.status}: ${html.slice(0, 500)}`);
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
      if (!action || !prompt) throw new Error(`no form at ${at}: ${html.slice(0, 500)}`);
      const form: Record<string, string> = prompt === 'login' ? { prompt, login, password: 'any password' } : { prompt };
      at = new URL(action.replace(/&amp;/g, '&'), at).href;
      response = await this.request(at, { method: 'POST', form });
    }
    throw new Error(`the sign-in did not reach ${callbackPrefix} in 20 steps`);
  }

  private jar(origin: string): Map<string, StoredCookie> {
    let jar = this.jars.get(origin);
    if (!jar) this.jars.set(origin, (jar = new Map()));
    return jar;
  }

  private keep(target: URL, line: string): void {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim());
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq);
    const value = pair!.slice(eq + 1);
    const attribute = (key: string) => attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
    const path = attribute('path') ?? '/';
    const maxAge = attribute('max-age');
    const expires = attribute('expires');
    const jar = this.jar(target.origin);
    if (maxAge === '0' || (expires !== undefined && Date.parse(expires) <= Date.now()) || value === '') jar.delete(name);
    else jar.set(name, { value, path });
  }
}
