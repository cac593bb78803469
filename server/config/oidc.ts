import { z } from 'zod';

import { ConfigError, refuse, text, variable, webAddress } from './variables.ts';

/** The portal roles a provider's role claim may map to (OIDC_ROLE_MAP); pending_director is the portal's own step. */
export const MAPPABLE_ROLES = ['employee', 'director', 'associate_director', 'admin'] as const;
export type MappableRole = (typeof MAPPABLE_ROLES)[number];

/** OIDC_* (README "Single sign-on", decision 063). */
export interface OidcConfig {
  /** OIDC_ISSUER: the provider's issuer identifier; its discovery document is read once, at start or on first use. */
  issuer: string;
  clientId: string;
  /** OIDC_CLIENT_SECRET; unset: a public client (PKCE alone). */
  clientSecret: string | undefined;
  /** OIDC_SCOPES, space-separated (default `openid email profile`). */
  scopes: string;
  /** OIDC_ROLE_CLAIM: the claim (a string or a list of strings) whose values OIDC_ROLE_MAP maps to portal roles. */
  roleClaim: string | undefined;
  /** OIDC_ROLE_MAP (`role=claim value;…`): claim value → portal role, in the order written (the first that maps wins). */
  roleMap: { value: string; role: MappableRole }[];
  /** The sign-in button's words (OIDC_BUTTON_LABEL_EN, OIDC_BUTTON_LABEL_HI). */
  label: { en: string; hi: string };
  /** `http://localhost` issuers (a provider on this machine, tests) are let through; any other must be https. */
  allowInsecure: boolean;
  /** `${PORTAL_URL}/api/auth/sso/callback`: the redirect URI registered at the provider. */
  redirectUri: string;
}

/**
 * OIDC_ROLE_MAP: `role=claim value;role=claim value` (admin=portal-admins;director=directors), each role one of
 * MAPPABLE_ROLES; a claim value may itself hold "=" (a group's DN), so only the first "=" divides.
 */
const roleMap = variable((v, ctx) => {
  if (v === undefined) return [];
  const entries: { value: string; role: MappableRole }[] = [];
  for (const part of v.split(';').map((p) => p.trim())) {
    if (!part) continue;
    const at = part.indexOf('=');
    const role = part.slice(0, at).trim() as MappableRole;
    const value = part.slice(at + 1).trim();
    if (at < 1 || !value || !MAPPABLE_ROLES.includes(role)) {
      return refuse(
        ctx,
        `OIDC_ROLE_MAP must be role=claim-value pairs separated by ";", each role one of ${MAPPABLE_ROLES.join(', ')} (got "${part}").`,
      );
    }
    entries.push({ value, role });
  }
  return entries;
});

/** OIDC_* (docs/decisions/063, 105). */
export const oidcEnv = z.object({
  OIDC_ISSUER: webAddress('OIDC_ISSUER'),
  OIDC_CLIENT_ID: text(),
  OIDC_CLIENT_SECRET: text(),
  OIDC_SCOPES: variable((v, ctx) => {
    const scopes = (v ?? 'openid email profile').trim().split(/\s+/);
    if (scopes.includes('openid')) return scopes.join(' ');
    return refuse(ctx, `OIDC_SCOPES must include openid (got "${v}").`);
  }),
  OIDC_ROLE_CLAIM: text(),
  OIDC_ROLE_MAP: roleMap,
  OIDC_BUTTON_LABEL_EN: text('Sign in with single sign-on'),
  OIDC_BUTTON_LABEL_HI: text('सिंगल साइन-ऑन से लॉग इन करें'),
});

/** Single sign-on is on when OIDC_ISSUER is set; then the client and the portal's address must be set too. */
export function oidcConfig(env: z.output<typeof oidcEnv> & { PORTAL_URL: string | undefined }): OidcConfig | null {
  const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, PORTAL_URL: portalUrl } = env;
  if (!issuer) {
    const stray = (['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_ROLE_CLAIM', 'OIDC_ROLE_MAP'] as const).filter(
      (name) => env[name] !== undefined && !(Array.isArray(env[name]) && env[name].length === 0),
    );
    if (stray.length) throw new ConfigError(`${stray.join(', ')} set without OIDC_ISSUER: set OIDC_ISSUER too.`);
    return null;
  }
  if (!clientId)
    throw new ConfigError('OIDC_ISSUER is set without OIDC_CLIENT_ID (the client registered at the provider).');
  if (!portalUrl) {
    throw new ConfigError(
      'OIDC_ISSUER needs PORTAL_URL, the address people open the portal at (the redirect URI is PORTAL_URL/api/auth/sso/callback).',
    );
  }
  if (env.OIDC_ROLE_MAP.length && !env.OIDC_ROLE_CLAIM) {
    throw new ConfigError('OIDC_ROLE_MAP needs OIDC_ROLE_CLAIM (the claim whose values it maps).');
  }
  return {
    issuer,
    clientId,
    clientSecret: env.OIDC_CLIENT_SECRET,
    scopes: env.OIDC_SCOPES,
    roleClaim: env.OIDC_ROLE_CLAIM,
    roleMap: env.OIDC_ROLE_MAP,
    label: { en: env.OIDC_BUTTON_LABEL_EN!, hi: env.OIDC_BUTTON_LABEL_HI! },
    allowInsecure: new URL(issuer).protocol === 'http:',
    redirectUri: `${portalUrl}/api/auth/sso/callback`,
  };
}
