/** The audit trail (server/modules/audit-trail). */
export const audit = {
  unavailable:
    'The audit trail cannot be written just now, so this cannot be opened. Please try again in a few minutes.',
  checkpoint_unavailable: 'The audit checkpoint could not be written just now. Please try again in a few minutes.',
  // Reading the trail (Admin → Audit Trail, decision 069).
  read_forbidden: 'Only directors and administrators can read the audit trail.',
  filter_too_long: 'A filter can be at most 200 characters long.',
  action_invalid: 'Please choose an action from the list.',
  classification_invalid: 'Please choose a classification from the list.',
  outcome_invalid: 'Please choose an outcome from the list.',
  dates_reversed: 'The From date cannot be after the To date.',
} as const;
