/**
 * The audit trail's words (decision 067): what an event records happened, and how it ended. The server
 * writes these codes; the Audit Trail screen filters by them and words them in the reader's language.
 */
export const AUDIT_ACTIONS = [
  // Sign-in
  'sign_in',
  'sign_in_failed',
  'second_factor',
  'second_factor_failed',
  'step_up',
  'step_up_failed',
  'sign_out',
  // Forgot password (decision 077)
  'password_reset_requested',
  'password_reset',
  // Single sign-on (decision 090): an account linked to a provider identity, or its link removed
  'sso_link_changed',
  // People
  'role_changed',
  'clearance_changed',
  'group_changed',
  'status_changed',
  'close_group_members_changed',
  // Classified items (a Confidential or Secret letter, a close-group document)
  'letter_viewed',
  'letter_downloaded',
  'document_downloaded',
  // e-Files above Unclassified (decision 107): an opening and an export as PDF
  'efile_viewed',
  'efile_exported',
  // Drafts for approval on such a file (decision 122): a version read, a draft approved and signed
  'efile_draft_viewed',
  'efile_draft_approved',
  // The dispatch register (decision 120): a letter of a file above Unclassified sent out
  'letter_dispatched',
  'search_hit_opened',
  'access_refused',
  'classification_changed',
  // Dak delegation (decision 078)
  'delegation_created',
  'delegation_ended',
  // Circulars that must be acknowledged
  'acknowledged',
  // Exports and the trail itself
  'exported',
  'audit_read',
  'audit_exported',
  'audit_checkpoint',
  'audit_purged',
  // Decision 115: an upload refused because clamd found malware in it
  'malware_detected',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_OUTCOMES = ['success', 'refused', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** The classifications an event may name: the letters' and the close-group documents'. */
export const AUDIT_CLASSIFICATIONS = ['Normal', 'Unclassified', 'Restricted', 'Confidential', 'Secret'] as const;
