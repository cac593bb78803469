/** Profiles, the staff directory and their forms (server/modules/users, shared/schemas/user.ts). */
export const users = {
  not_found: 'User not found.',
  own_profile_only: 'You may only view or change your own profile.',
  own_password_only: 'You may only change your own password.',
  password_in_directory: 'Your password is kept by the lab directory. Please change it there, not in the portal.',
  photo_required: 'Please select a photo first.',
  current_password_wrong: 'The current password is not correct.',
  current_password_required: 'Please enter your current password.',
  new_password_same: 'The new password must differ from the current one.',
  /** PASSWORD_HISTORY (decision 117): the current password and the ones before it, `count` in all. */
  password_recently_used_one: 'The new password must differ from the current one.',
  password_recently_used_other:
    'Choose a password you have not used recently: your last {{count}} passwords cannot be used again.',
  name_too_long: 'Name must be at most 200 characters.',
  gender_invalid: 'Please choose a gender from the list.',
  marital_status_invalid: 'Please choose a marital status from the list.',
  blood_group_invalid: 'Please choose a blood group from the list.',
  cadre_invalid: 'Please choose a cadre from the list.',
  designation_not_of_cadre: 'Please choose a designation of the selected cadre.',
  employment_end_before_start: 'The employment end date cannot be before its start.',
  link_invalid: 'Please enter a full link starting with http:// or https://.',
  list_entry_too_long: 'Each entry must be at most 200 characters.',
  list_too_long: 'At most 50 entries.',
  about_too_long: 'About must be at most 5000 characters.',
  /** Filters of the directory, Manage Users and the activity logs. */
  search_too_long: 'The search text is too long.',
  role_invalid: 'Please choose a role from the list.',
  group_invalid: 'Please choose a group from the list.',
  status_invalid: 'Please choose a status from the list.',
  log_user_invalid: 'Please choose a user from the list.',
  log_dates_reversed: 'Start date cannot be after end date.',
  /** Manage Users' forms (the admin module sends them). */
  reject_reason_required: 'Please give a reason for rejecting this user.',
  reason_too_long: 'The reason must be at most 500 characters.',
  clearance_required: 'Please say whether the user is cleared (true or false).',
  /** The person's language (PUT /api/users/me/language). */
  language_invalid: 'Please choose English (en) or Hindi (hi).',
  /** Mail preferences in My Account (PUT /api/users/me/mail-preferences, decision 081). */
  mail_preferences_required: 'Please choose how you want at least one kind of mail.',
  mail_choice_invalid: 'Please choose immediately (now), in the daily digest (digest) or off.',
  mail_kind_invalid: 'Please choose a kind of mail from the list.',
  mail_kind_mandatory: 'This mail is always sent; it cannot be changed.',
  mail_kind_admins_only: 'Only administrators receive this mail.',
  mail_off: 'The portal sends no email, so there is nothing to choose.',
} as const;
