// The people the e2e run's OpenID provider knows (e2e/global-setup.ts starts it; e2e/sso.e2e.ts signs in as them).
// Plain data: the test files import it without the provider.

/** The role claim's value the portal maps to director (OIDC_ROLE_MAP in e2e/global-setup.ts). */
export const SSO_DIRECTORS_GROUP = 'directors';

/** The sign-in button's words at the e2e run's portal (OIDC_BUTTON_LABEL_EN / _HI). */
export const SSO_LABEL = { en: 'Sign in with Parichay', hi: 'परिचय से लॉग इन करें' } as const;

/** A director at the provider: a first sign-in makes an approved director account (the role claim maps). */
export const SSO_DIRECTOR = {
  login: 'parichay-director',
  name: 'Anjali Deshmukh',
  email: 'anjali.deshmukh@parichay.lab.test',
} as const;

/**
 * Someone whose unverified email is the admin's: the portal does not link them by itself, and asks an administrator to
 * (auth.sso_link_requested, decision 090).
 */
export const SSO_UNVERIFIED = { login: 'parichay-unverified', name: 'Not The Admin' } as const;

/**
 * Someone whose unverified email is the portal account e2e/sso-link.e2e.ts makes with it: refused until an
 * administrator approves the link on the approvals screen, then signed in (decision 090).
 */
export const SSO_LINK_PERSON = {
  login: 'parichay-link-person',
  name: 'Meera Krishnan',
  email: 'meera.krishnan@lab.test',
} as const;
