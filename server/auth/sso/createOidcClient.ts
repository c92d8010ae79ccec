/**
 * The console's OpenID Connect client (issue #33), through `openid-client` (the certified client of the openid-client
 * package: PKCE, state, nonce, the ID token's signature, issuer, audience and times, the `iss` of the authorization
 * response are all its checks, never ours). The provider's metadata is discovered at the first sign-in, not at start:
 * a console whose provider is down still starts and signs people in with passwords; each sign-in tries again until
 * a discovery succeeds, which is then kept for the process.
 */
import * as client from 'openid-client';
import type { SsoConfig } from './ssoOptions';

/** Seconds a request to the provider may take (discovery, token, userinfo, keys). */
const PROVIDER_TIMEOUT_S = 10;

/** What the sign-in routes ask of the provider. */
export interface OidcClient {
  /** The provider's configuration, discovered once; rejects when the provider cannot be reached or is not one. */
  configuration(): Promise<client.Configuration>;
}

/** A lazily discovered client of `config`'s provider. */
export function createOidcClient(config: SsoConfig): OidcClient {
  let discovered: Promise<client.Configuration> | undefined;
  return {
    configuration() {
      discovered ??= client
        .discovery(config.issuer, config.clientId, { client_secret: config.clientSecret }, client.ClientSecretBasic(config.clientSecret), {
          timeout: PROVIDER_TIMEOUT_S,
          // checkSsoOptions allows http only for a loopback issuer (a provider on the same machine, as in tests).
          ...(config.issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
        })
        .catch((err: unknown) => {
          discovered = undefined;
          throw err;
        });
      return discovered;
    },
  };
}
