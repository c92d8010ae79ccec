/**
 * A real OpenID Connect provider for the single sign-on tests (issue #33): the `oidc-provider` package in-process on
 * 127.0.0.1, with one client registered (id, secret, the console's callback as its redirect URI) and the accounts a
 * test names. Its development sign-in form (devInteractions) takes any login: the login is the account id, and the
 * account's claims are what the test gave it (email, email_verified, name). Nothing of the flow is mocked: the
 * console's server discovers it, is redirected to it, exchanges codes at its token endpoint and checks its ID tokens.
 */
import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';

/** The claims of an account, as the provider answers them. */
export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export const OIDC_CLIENT_ID = 'waymark-console';
export const OIDC_CLIENT_SECRET = 'waymark-console-secret-0123456789';

/** A running provider. */
export interface TestOidcProvider {
  /** `http://127.0.0.1:{port}`: the issuer. */
  issuer: string;
  /** Accounts by login; a test may add or change them while the provider runs. */
  accounts: Record<string, TestAccount>;
  /** Starts answering (on the port taken at creation; after `close`, it takes that port again). */
  listen(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A provider for the console whose callback is `redirectUri`, not yet answering (its issuer is known first, so a
 * console can be configured with it before the console's own port is). Its port is held from creation: a port only
 * probed and let go was taken by the console started next in one CI run (EADDRINUSE).
 */
export async function createOidcProvider(accounts: Record<string, TestAccount> = {}): Promise<TestOidcProvider & { register(redirectUri: string): void }> {
  const redirectUris: string[] = [];
  let provider: Provider | undefined;
  /** The provider's requests once it answers; until then the held port answers 503. */
  let handler: ReturnType<Provider['callback']> | undefined;
  const serve: Parameters<typeof createServer>[1] = (req, res) => (handler ? void handler(req, res) : void res.writeHead(503).end());
  let server: Server | undefined = createServer(serve);
  const bind = (on: Server, at: number) =>
    new Promise<void>((resolve, reject) => {
      on.once('error', reject);
      on.listen(at, '127.0.0.1', () => resolve());
    });
  await bind(server, 0);
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the provider has no port');
  const port = address.port;
  const issuer = `http://127.0.0.1:${port}`;
  const build = () =>
    new Provider(issuer, {
      clients: [
        {
          client_id: OIDC_CLIENT_ID,
          client_secret: OIDC_CLIENT_SECRET,
          redirect_uris: redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      async findAccount(_ctx, id) {
        const account = accounts[id];
        if (!account) return undefined;
        return { accountId: id, claims: async () => ({ sub: id, ...account }) };
      },
      cookies: { keys: ['waymark-test-provider-cookie-key'] },
      features: { devInteractions: { enabled: true } },
    });
  return {
    issuer,
    accounts,
    register(redirectUri) {
      redirectUris.push(redirectUri);
    },
    async listen() {
      provider ??= build();
      handler = provider.callback();
      if (!server) {
        server = createServer(serve);
        await bind(server, port);
      }
    },
    async close() {
      const closing = server;
      server = undefined;
      handler = undefined;
      if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
      closing?.closeAllConnections();
    },
  };
}
