/** Approving registrations and Manage Users (server/modules/admin; approveUserInput in shared/schemas/auth.ts). */
export const admin = {
  invalid_user_id: 'Invalid user id.',
  lab_required: 'Please select a lab.',
  group_and_role_required: 'Please select a Group and a Role for the user.',
  not_pending: 'This user is not waiting for approval.',
  group_not_found: 'The chosen group does not exist.',
  lab_not_found: 'The chosen lab does not exist.',
  approve_first: 'Approve this user first: pending and rejected registrations have no role or group yet.',
  own_role: 'You cannot change your own role.',
  holds_classified_one:
    '{{name}} still holds {{count}} Confidential or Secret letter. They must be closed or marked to someone else first.',
  holds_classified_other:
    '{{name}} still holds {{count}} Confidential or Secret letters. They must be closed or marked to someone else first.',
  own_deactivation: 'You cannot deactivate your own account.',
  not_active: 'Only an active account can be deactivated.',
  not_deactivated: 'Only a deactivated account can be reactivated.',
  document_required: 'Please select a file to upload.',
  document_not_found: 'Document not found.',
  /** Single sign-on links an administrator approves or removes (server/modules/auth/sso-links.*, decision 090). */
  sso_request_id_invalid: 'Invalid link request id.',
  sso_request_not_found: 'This link request was not found: it may have been approved or dismissed already.',
  sso_already_linked:
    'This account is already linked to single sign-on. Remove its link first if this sign-in should replace it.',
  sso_identity_taken: 'Another account already signs in with this single sign-on identity.',
  sso_not_linked: 'This account is not linked to single sign-on.',
} as const;
