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
  /** The step-up before classified letters (decision 066). */
  step_up_required: 'Please confirm it is you to carry on.',
  step_up_answer_required: 'Enter your password or a code.',
  step_up_one_answer: 'Enter either your password or a code, not both.',
  step_up_code_too_long: 'A code is at most 64 characters.',
  step_up_wrong_password: 'That password is not correct.',
  step_up_use_factor: 'Please confirm with your second factor (an authenticator code or a recovery code).',
  step_up_no_factor: 'You have no second factor: please confirm with your password.',
  step_up_sign_in_again: 'Please sign out and sign in again to carry on.',
  /** Active sessions (My Account → Security). */
  session_not_found: 'That session was not found, or has already ended.',
  /** Sign-in with the lab's directory (server/modules/auth/directory*.ts, decision 062). */
  directory_unreachable: 'The lab directory cannot be reached. Try again in a few minutes.',
  directory_disabled: 'Your account is disabled in the lab directory. Please contact the administrator.',
  directory_no_access:
    'Your account in the lab directory does not give access to the portal. Please contact the administrator.',
  directory_no_email:
    'Your entry in the lab directory has no email address. Please ask the directory administrator to add one.',
  directory_local_account:
    'A portal account already uses this email. Sign in with its portal password, or ask an administrator.',
  /** Decision 094: an entry whose mail is another directory account's, whose own entry is still in the directory. */
  directory_mail_in_use:
    'Another account of the lab directory already has this email. The administrators have been told; please contact them.',
  local_sign_in_off: 'Please sign in with your lab directory account. Portal passwords are for administrators only.',
  /** PASSWORD_MAX_AGE_DAYS (decision 117): the sign-in's answer that leads to the change-password form. */
  password_expired: 'Your password is more than {{days}} days old. Choose a new one to continue.',
  password_change_ticket_invalid: 'The time to choose a new password has run out. Please sign in again.',
  /** The second factor (server/modules/mfa, decision 064). */
  second_factor_required: 'Enter a code from your authenticator app, or a recovery code, to continue.',
  second_factor_enrolment_required: 'Your role requires a second factor. Set up an authenticator app to continue.',
  second_factor_ticket_invalid: 'This sign-in step has expired. Please sign in again.',
  second_factor_code_required: 'Enter the code.',
  second_factor_code_invalid: 'That code is not right. Please try again.',
  second_factor_not_found: 'Second factor not found.',
  second_factor_none: 'You have no second factor yet.',
  second_factor_already_set_up: 'You already have a second factor. Sign in with it, then add another in My Account.',
  second_factor_no_enrolment: 'Start the set-up again: no authenticator app is waiting to be confirmed.',
  second_factor_last_required: 'Your role requires a second factor: add another one before removing this one.',
  second_factor_reset_own:
    'You cannot reset your own second factor. Sign in with a recovery code and set up a new one.',
  second_factor_label_too_long: 'The name must be at most 60 characters.',
  /** Single sign-on (server/modules/auth/sso.*, decision 063): shown on /login after the provider sends the person back. */
  sso_not_configured: 'Single sign-on is not set up on this portal.',
  sso_unavailable: 'The sign-in service could not be reached. Please try again later.',
  sso_state_mismatch: 'This sign-in was not started here or took too long. Please try again.',
  sso_failed: 'The sign-in service did not confirm who you are. Please try again.',
  sso_provider_error: 'The sign-in service did not sign you in. Please try again.',
  sso_code_invalid: 'This sign-in has expired or was already used. Please sign in again.',
  sso_no_email: 'The sign-in service did not give an email address for your account. Please contact the administrator.',
  sso_email_in_use:
    'An account with this email already exists and cannot be linked to this sign-in. Please contact the administrator.',
  /** Decision 090: the email is an unlinked account's but the provider did not verify it; an admin links them. */
  sso_link_requested:
    'Your portal account has this email, but your sign-in provider has not verified it. An administrator has been asked to link them; try again once they have.',
  /** Passkeys, the stronger second factor (server/modules/mfa/passkeys.ts, decision 065). */
  passkey_response_invalid: "The passkey's answer could not be read. Please try again.",
  passkey_not_verified: 'The passkey could not be verified. Please try again.',
  passkey_challenge_expired: 'This passkey request has expired or was already used. Please try again.',
  passkey_unknown: 'This passkey is not registered to your account.',
  passkey_none: 'You have no passkey yet.',
  passkey_already_registered: 'This passkey is already registered.',
  /** Forgot password (server/modules/auth/password-reset.ts, decision 077). */
  reset_off:
    'Password reset by email is not available on this portal. Please ask an administrator to reset your password.',
  reset_use_directory:
    'Your account signs in with the lab directory. Please change your password there, or ask the directory administrator.',
  reset_use_sso:
    "Your account signs in through single sign-on. Please change your password with the lab's sign-in service.",
  reset_rate_limited: 'Too many requests to reset a password. Please try again in {{wait}}.',
  reset_token_required: 'This link is incomplete. Please open the link in the email again.',
  reset_link_invalid: 'This link to reset your password has expired or was already used. Please ask for a new one.',
} as const;
