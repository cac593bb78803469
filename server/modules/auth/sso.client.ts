import { createHmac, timingSafeEqual } from 'node:crypto';

import type { FastifyBaseLogger } from 'fastify';
import * as oidc from 'openid-client';

import type { OidcConfig } from '#server/config.ts';

/** The cookie that carries a sign-in's state, nonce and PKCE verifier from /sso/start to /sso/callback. */
export const SSO_COOKIE = 'lp_sso';
/** How long a person has at the provider between /sso/start and /sso/callback. */
export const SSO_FLOW_SECONDS = 600;

/** What /sso/start keeps for /sso/callback (decision 063): in a signed, short-lived, httpOnly cookie. */
export interface SsoFlow {
  state: string;
  nonce: string;
  verifier: string;
  /** Seconds since 1970 after which the cookie is refused. */
  exp: number;
}

/** The claims the portal reads of a person the provider signed in (ID token, completed by the userinfo answer). */
export interface SsoClaims {
  [claim: string]: unknown;
  iss: string;
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
}

/**
 * The relying party of one provider (OIDC_*): discovery once, lazily (the first sign-in, or the app's start), and again
 * only after a failure; the state cookie's signature; the authorization request, the callback's checks (state, nonce,
 * PKCE, issuer, ID token signature by openid-client), and the end-session address.
 */
export function createSsoClient(settings: OidcConfig, jwtSecret: string, log: FastifyBaseLogger) {
  const key = createHmac('sha256', jwtSecret).update('lab-portal sso state cookie').digest();
  let discovered: Promise<oidc.Configuration> | undefined;

  /** The provider's configuration, discovered once; a failed discovery is tried again at the next call. */
  function configuration(): Promise<oidc.Configuration> {
    discovered ??= oidc
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        settings.clientSecret,
        settings.clientSecret ? undefined : oidc.None(),
        { execute: settings.allowInsecure ? [oidc.allowInsecureRequests] : [], timeout: 10 },
      )
      .catch((err: unknown) => {
        discovered = undefined;
        log.warn({ err, issuer: settings.issuer }, 'single sign-on: the provider could not be discovered');
        throw err;
      });
    return discovered;
  }

  const sign = (body: string) => createHmac('sha256', key).update(body).digest('base64url');

  return {
    settings,
    configuration,

    /** The provider's sign-in address for a new flow, and the cookie value that remembers the flow. */
    async start(): Promise<{ url: string; cookie: string }> {
      const config = await configuration();
      const flow: SsoFlow = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier: oidc.randomPKCECodeVerifier(),
        exp: Math.floor(Date.now() / 1000) + SSO_FLOW_SECONDS,
      };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope: settings.scopes,
        state: flow.state,
        nonce: flow.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: 'S256',
      });
      const body = Buffer.from(JSON.stringify(flow)).toString('base64url');
      return { url: url.href, cookie: `${body}.${sign(body)}` };
    },

    /** The flow a cookie remembers, or null when it is missing, altered or expired. */
    readFlow(cookie: string | undefined): SsoFlow | null {
      const [body, mac, ...rest] = (cookie ?? '').split('.');
      if (!body || !mac || rest.length) return null;
      const expected = Buffer.from(sign(body));
      const given = Buffer.from(mac);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      try {
        const flow = JSON.parse(Buffer.from(body, 'base64url').toString()) as SsoFlow;
        return flow.exp * 1000 > Date.now() ? flow : null;
      } catch {
        return null;
      }
    },

    /**
     * Redeems the callback's authorization code (openid-client checks state, PKCE, the issuer, the ID token's
     * signature, audience and nonce) and reads the person's claims, completed by the userinfo endpoint when the
     * provider has one. `query` is the callback's query string.
     */
    async finish(query: string, flow: SsoFlow): Promise<{ claims: SsoClaims; idToken: string }> {
      const config = await configuration();
      const currentUrl = new URL(settings.redirectUri);
      currentUrl.search = query;
      const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims()!;
      let claims: SsoClaims = { ...idClaims } as SsoClaims;
      if (config.serverMetadata().userinfo_endpoint) {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
        claims = { ...info, ...idClaims } as SsoClaims;
        // The ID token's claims win; those it does not carry come from userinfo.
        for (const [name, value] of Object.entries(info)) if (idClaims[name] === undefined) claims[name] = value;
      }
      return { claims, idToken: tokens.id_token! };
    },

    /**
     * The provider's end-session address for a session begun with this ID token (RP-initiated logout), or undefined
     * when the provider offers none or cannot be reached now.
     */
    async endSessionUrl(idToken: string, postLogoutRedirectUri: string): Promise<string | undefined> {
      try {
        const config = await configuration();
        if (!config.serverMetadata().end_session_endpoint) return undefined;
        return oidc.buildEndSessionUrl(config, {
          id_token_hint: idToken,
          post_logout_redirect_uri: postLogoutRedirectUri,
        }).href;
      } catch {
        return undefined;
      }
    },
  };
}

export type SsoClient = ReturnType<typeof createSsoClient>;
