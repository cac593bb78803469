/**
 * Refusals any module may send, and the generic answers of the error handler (server/app.ts). Keys are the part of
 * the code after `common.`; values are the English sentence, with `{{name}}` for a parameter (i18next syntax).
 */
export const common = {
  not_found: 'Not found.',
  forbidden: 'You do not have permission to do this.',
  invalid_input: 'Invalid input.',
  server_error: 'Something went wrong on our side. Please try again.',
  request_too_large: 'The request is too large.',
  no_such_address: 'No such address: {{method}} {{path}}',
  address_invalid_character: 'The address contains an invalid character.',
  text_nul: 'Text must not contain NUL characters.',
  nested_too_deeply: 'The data is nested too deeply.',
  too_many_attempts: 'Too many attempts. Please wait a minute and try again.',
  /** Shared schema sentences of more than one domain (shared/schemas/common.ts, auth.ts, user.ts, unit.ts). */
  invalid_id: 'Invalid id.',
  date_invalid: 'Please enter a valid date.',
  date_out_of_range: 'Please enter a date between {{min}} and {{max}}.',
  email_invalid: 'Invalid email address.',
  name_required: 'Name is required.',
  designation_required: 'Designation is required.',
  mobile_invalid: 'Mobile number must be 10 digits.',
  /** A group select's value that is not a group (the letters' pendency, a person's group). */
  choose_group: 'Please choose a group from the list.',
  /** A wait, as a parameter of another sentence ("Please try again in {{wait}}."). */
  wait_seconds_one: '{{count}} second',
  wait_seconds_other: '{{count}} seconds',
  wait_minutes_one: '{{count}} minute',
  wait_minutes_other: '{{count}} minutes',
  wait_hours_one: '{{count}} hour',
  wait_hours_other: '{{count}} hours',
  /** A sentence from a library (Fastify, a parser) or not yet given a code: `message` carries it as it came. */
  unclassified: '{{message}}',
} as const;

/** The database is away (server/lib/errors.ts isDatabaseUnavailable): every request answers 503 meanwhile. */
export const database = {
  unavailable: 'The database is not available right now. Please try again in a moment.',
} as const;
