import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import Provider from 'oidc-provider';

/** A person the test provider knows, by their subject (also the login typed at its sign-in form): their claims. */
export type TestAccount = Record<string, unknown> & { sub: string };

export interface TestProvider {
  issuer: string;
  /** Accounts by subject; a test adds its own. */
  accounts: Map<string, TestAccount>;
  close: () => Promise<void>;
}

export const TEST_CLIENT = { id: 'lab-portal', secret: 'lab-portal-client-secret-lab-portal' };
/** The role claim the test provider issues (a list of group names), in the `profile` scope. */
export const TEST_ROLE_CLAIM = 'portal_groups';

/**
 * A real OpenID provider (Panva's oidc-provider) on a free port of this machine, with the portal registered as a
 * confidential client that must use PKCE, and its development sign-in and consent pages (devInteractions).
 */
export async function startTestProvider(portalUrl: string): Promise<TestProvider> {
  const accounts = new Map<string, TestAccount>();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT.id,
        client_secret: TEST_CLIENT.secret,
        redirect_uris: [`${portalUrl}/api/auth/sso/callback`],
        post_logout_redirect_uris: [`${portalUrl}/login`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    pkce: { required: () => true },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', TEST_ROLE_CLAIM],
    },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    cookies: { keys: ['test-provider-cookie-key'] },
    findAccount: (_ctx: unknown, id: string) => {
      const account = accounts.get(id);
      return account && { accountId: id, claims: async () => ({ ...account }) };
    },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, AuthorizationCode: 60, IdToken: 3600 },
    renderError: (ctx: { type: string; body: string }, out: Record<string, string>) => {
      ctx.type = 'html';
      ctx.body = `<p>${out.error}: ${out.error_description}</p>`;
    },
  });
  // Its own logging of expected failures (replayed codes) is noise in the test output.
  provider.on('server_error', () => undefined);
  server.on('request', provider.callback());
  return {
    issuer,
    accounts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A tiny cookie jar for one browser: `name=value` by name, for one host. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }
}

/**
 * Goes through the provider as a person would (fetch with manual redirects and cookies): from the authorization
 * address, signs in as `login` at the development sign-in form, consents, and answers the address the provider sends
 * the browser back to (the portal's callback with `code`, `state` and `iss`, or with `error`).
 */
export async function signInAtProvider(authorizationUrl: string, login: string, callbackPrefix: string) {
  const jar = new CookieJar();
  let url = authorizationUrl;
  let method = 'GET';
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(callbackPrefix)) return url;
    const res = await fetch(url, { method, body, redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(res.headers);
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`provider answered ${res.status}: ${html.slice(0, 300)}`);
    // The development pages: a sign-in form (any password) or a consent form, both posted to the page's address.
    body = html.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login, password: 'any' })
      : new URLSearchParams({ prompt: 'consent' });
    method = 'POST';
  }
  throw new Error('the provider did not send the browser back');
}
