/** The audit trail (server/modules/audit-trail, issue 31). */
export const audit = {
  unavailable:
    'The audit trail cannot be written just now, so this cannot be opened. Please try again in a few minutes.',
  checkpoint_unavailable: 'The audit checkpoint could not be written just now. Please try again in a few minutes.',
} as const;
