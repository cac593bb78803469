/** Sign-in, sessions and registration (server/modules/auth, server/plugins/auth.ts). */
export const auth = {
  sign_in_required: 'Please sign in to continue.',
  account_locked: 'Too many failed sign-in attempts for this account. Please try again in {{wait}}.',
  network_locked: 'Too many failed sign-in attempts from your network. Please try again in {{wait}}.',
  registrations_rate_limited: 'Too many registrations from your network. Please try again in {{wait}}.',
} as const;
