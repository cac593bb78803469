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
} as const;
