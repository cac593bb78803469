/**
 * Sentences the lab and its research groups share (shared/schemas/unit.ts: contact entries, office rows, items): one
 * code each, whichever of the two sends it.
 */
export const units = {
  contact_type_required: 'Please choose a contact type.',
  contact_value_required: 'A contact value is required.',
  contact_number_too_long: 'Contact number is too long.',
  /** A notice or circular with a blank field or (on create) no file: the lab's and the groups' (spec §5). */
  all_fields_required: 'All fields are required',
} as const;
