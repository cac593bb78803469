/** The audit trail (server/modules/audit-trail, issue 31). */
export const audit = {
  unavailable:
    'The audit trail cannot be written just now, so this cannot be opened. Please try again in a few minutes.',
} as const;
