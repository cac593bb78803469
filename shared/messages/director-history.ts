/** The lab's and the groups' director histories (server/modules/director-history, directorEntryInput). */
export const director_history = {
  user_or_name_required: 'Please select a user or enter a name',
  name_too_long: 'The name is too long.',
  designation_too_long: 'The designation is too long.',
  from_required: 'From date is required.',
  end_before_start: 'The end date cannot be before the start date.',
  user_not_found: 'The chosen user does not exist.',
} as const;
