/**
 * Circulars and notices that must be acknowledged (decision 074; server/modules/acknowledgements,
 * shared/schemas/acknowledgements.ts): the publishing fields' validation and every refusal of the routes.
 */
export const acknowledgements = {
  // Publishing (multipart fields of a lab or group notice or circular)
  requires_invalid: 'Requires acknowledgement must be true or false.',
  deadline_required: 'Please choose the date by which it must be acknowledged.',
  deadline_invalid: 'The acknowledgement deadline is not a valid date.',
  deadline_past: 'The acknowledgement deadline cannot be before today.',
  audience_scope_invalid: 'Please choose the audience: the whole lab, some groups or some roles.',
  audience_groups_invalid: 'Please choose groups from the list.',
  audience_groups_required: 'Please choose at least one group.',
  audience_groups_not_found: 'Some of the chosen groups do not exist.',
  audience_roles_invalid: 'Please choose roles from the list.',
  audience_roles_required: 'Please choose at least one role.',
  audience_outside_group: "A group's notice or circular can only ask its own group's members to acknowledge it.",
  audience_empty: 'Nobody is in this audience. Please choose another.',
  fixed_at_publishing:
    'The acknowledgement deadline and audience are fixed once published. Delete the notice and publish it again to change them.',
  // The person's own list
  status_invalid: 'Status must be pending or acknowledged.',
  not_found: 'Acknowledgement not found.',
  open_first: 'Please open the document before acknowledging it.',
  // Reports
  request_not_found: 'Acknowledgement request not found.',
  group_invalid: "Please choose one of the report's groups.",
  report_denied:
    'You are not authorized to see who has acknowledged this. Only its publisher, the group heads of its audience, directors and administrators may.',
  report_group_denied: 'You may see only your own group in this report.',
} as const;
