/** Research groups: the group, its members, items and office (server/modules/groups, shared/schemas/group.ts). */
export const groups = {
  name_required: 'Group name is required',
  name_too_long: 'The group name is too long.',
  text_too_long: 'The text is too long.',
  name_taken: 'A group with this name already exists.',
  choose_employees_from_list: 'Please choose employees from the list.',
  employees_required: 'Please select at least one employee.',
  employees_not_found: 'Some of the chosen employees could not be found or are not approved.',
  too_many_contacts: 'At most 50 contact entries.',
  /** A group file (project, patent, ...) with a blank field or no file (spec §5 Groups). */
  files_required: 'All fields required',
  item_name_too_long: 'The name is too long.',
  item_description_too_long: 'The description is too long.',
  group_required: 'Please select a group.',
  already_in_group: 'This person is already in this group.',
  target_not_found: 'The chosen group does not exist.',
  not_a_member: 'This person is not a member of this group.',
  not_found: 'Group not found.',
  no_group: 'You are not assigned to any group.',
  item_not_found: 'Item not found.',
  entry_not_found: 'Entry not found.',
  office_member_not_found: 'Office member not found.',
  /** Spec §2 Group page, to the letter: what a signed-in outsider is told. */
  access_denied: 'Access Denied. You are not authorized to view this group. You are not a member of this group.',
  not_a_manager:
    "You are not authorized to manage this group. Only an administrator or the group's current associate director may.",
} as const;
