/** Sign-in, sessions and registration (server/modules/auth, server/plugins/auth.ts, shared/schemas/auth.ts). */
export const auth = {
  sign_in_required: 'Please sign in to continue.',
  account_locked: 'Too many failed sign-in attempts for this account. Please try again in {{wait}}.',
  network_locked: 'Too many failed sign-in attempts from your network. Please try again in {{wait}}.',
  registrations_rate_limited: 'Too many registrations from your network. Please try again in {{wait}}.',
  invalid_credentials: 'Invalid email or password.',
  session_expired: 'Your session has expired. Please sign in again.',
  /** Why an account that exists may not sign in (server/plugins/auth.ts refusalFor; decision 003). */
  account_pending: 'Your account is awaiting admin approval. Please wait for an administrator to approve it.',
  account_rejected: 'Your registration was not approved.',
  account_rejected_reason: 'Your registration was not approved. Reason: {{reason}}',
  account_deactivated: 'Your account has been deactivated. Please contact the administrator.',
  user_exists: 'User already exists',
  email_required: 'Email is required.',
  password_required: 'Password is required.',
  password_too_short: 'Password must be at least {{min}} characters.',
  password_too_long: 'Password must be at most 200 characters.',
  role_required: 'Please choose a role.',
  /** Passkeys, the stronger second factor (server/modules/mfa/passkeys.ts, decision 065). */
  passkey_response_invalid: "The passkey's answer could not be read. Please try again.",
  passkey_not_verified: 'The passkey could not be verified. Please try again.',
  passkey_challenge_expired: 'This passkey request has expired or was already used. Please try again.',
  passkey_unknown: 'This passkey is not registered to your account.',
  passkey_none: 'You have no passkey yet.',
  passkey_already_registered: 'This passkey is already registered.',
} as const;
