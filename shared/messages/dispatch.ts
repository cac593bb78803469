/** The dispatch register (decision 120). */
export const dispatch = {
  not_found: 'No such dispatch.',
  item_not_found: 'No such correspondence item in this file.',
  not_signed_pdf: 'Only a signed PDF can be dispatched.',
  signature_invalid: 'The signed PDF does not verify: it cannot be dispatched.',
  already_dispatched: 'This letter was dispatched already as {{number}}.',
  mode_invalid: 'Choose post, speed post, hand or email.',
  date_future: 'The dispatch date cannot be in the future.',
  recipients_required: 'Add at least one recipient.',
  recipient_name_required: 'Give each recipient a name.',
  address_required: 'Give each recipient an address.',
  email_required: 'Give each recipient an email address.',
  email_invalid: 'Enter a valid email address.',
  mail_off: 'The portal sends no mail: dispatch it another way.',
  no_lab: 'The lab is not set up yet.',
  not_holder: 'Only the holder of the file can dispatch its letters.',
} as const;
