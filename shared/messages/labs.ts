/** The lab's information and lists (server/modules/labs, shared/schemas/lab.ts; spec §5 Lab). */
export const labs = {
  name_required: 'Lab name is required',
  domain_required: 'Domain is required',
  vision_required: 'Vision is required',
  mission_required: 'Mission is required',
  about_required: 'About is required',
  history_required: 'Lab history is required',
  /** A product or advertisement with a blank name or description. */
  products_required: 'Name and description are required',
  exists: 'The lab already exists. Only one lab can be created; update its information instead.',
  not_created: 'No lab has been created yet.',
  not_found: 'Lab not found.',
  /** A lab id in an address or query that is not one (the group form's labId too). */
  id_missing: 'Lab ID is missing.',
  invalid_item_id: 'Invalid item id.',
  invalid_entry_id: 'Invalid director entry id.',
  no_such_list: 'No such list of the lab.',
  notice_gone: 'This notice no longer exists.',
  circular_gone: 'This circular no longer exists.',
  product_gone: 'This product no longer exists.',
  advertisement_gone: 'This advertisement no longer exists.',
  director_entry_gone: 'This director entry no longer exists.',
} as const;
