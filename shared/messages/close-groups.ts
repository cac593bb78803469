/** Close groups and their shared documents (server/modules/close-groups, shared/schemas/close-group.ts; spec §5). */
export const close_groups = {
  group_name_required: 'Group Name is required.',
  group_name_too_long: 'Group Name must be at most 200 characters.',
  group_purpose_required: 'Group Purpose is required.',
  group_purpose_too_long: 'Group Purpose must be at most 5000 characters.',
  duration_required: 'Group Duration (From and To dates) are required.',
  start_after_end: 'Start date cannot be after end date.',
  // NOTE: the spec states the rule ("Requested By needs at least one user") but no wording; docs/decisions/007.
  requested_by_required: 'Please select at least one user for Requested By.',
  choose_users_from_list: 'Please choose users from the list.',
  too_many_members: 'A close group can have at most 200 members.',
  members_not_found: 'Some of the selected users were not found or are not approved. Please choose again.',
  admin_remarks_too_long: 'Admin Remarks must be at most 5000 characters.',
  file_required: 'Please select a file to upload.',
  new_filename_required: 'Please enter a new filename.',
  new_filename_same: 'New filename is the same as the current filename.',
  filename_too_long: 'The file name must be at most 200 characters.',
  filename_unsafe: 'A file name cannot contain / or \\ or control characters.',
  choose_classification: 'Please choose a classification: Unclassified, Restricted, Confidential or Secret.',
  classify_uploader_only:
    'Only the person who uploaded this document or an administrator can change its classification.',
  not_found: 'Close group not found.',
  document_not_found: 'Document not found.',
  not_a_member: 'You are not a member of this close group.',
  rename_uploader_only: 'Only the person who uploaded this document or an administrator can rename it.',
  delete_uploader_only: 'Only the person who uploaded this document or an administrator can delete it.',
  /** The time box (docs/decisions/007): `date` is the day, as the portal writes dates. */
  ended: 'This close group ended on {{endDate}}. Its documents can be read but not added, renamed or deleted.',
  upcoming: 'This close group starts on {{startDate}}. Documents can be added, renamed or deleted from that day.',
} as const;
