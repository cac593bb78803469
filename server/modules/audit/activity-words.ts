import type { Role } from '#shared/constants.ts';
import type { CodedMessage, MessageCode } from '#shared/messages/index.ts';

/**
 * Words that sit inside an activity-log action and vary with a value (a role, a kind of item, a feedback's status),
 * as coded parameters (decision 060): the English is the value itself, as the log always wrote it, and the web words
 * it in the reader's language. A value without a word here (a trial repository's free-text type) is kept as it is.
 */
const WORDS: Record<string, MessageCode> = {
  employee: 'activity.word_employee',
  director: 'activity.word_director',
  associate_director: 'activity.word_associate_director',
  pending_director: 'activity.word_pending_director',
  admin: 'activity.word_admin',
  notice: 'activity.word_notice',
  circular: 'activity.word_circular',
  product: 'activity.word_product',
  advertisement: 'activity.word_advertisement',
  project: 'activity.word_project',
  patent: 'activity.word_patent',
  technology: 'activity.word_technology',
  course: 'activity.word_course',
  publication: 'activity.word_publication',
  Document: 'activity.word_document',
  Code: 'activity.word_code',
  'ZIP File': 'activity.word_zip_file',
  question: 'activity.word_question',
  suggestion: 'activity.word_suggestion',
  problem: 'activity.word_problem',
  accessibility: 'activity.word_accessibility',
  other: 'activity.word_other_category',
  new: 'activity.word_new',
  answered: 'activity.word_answered',
  closed: 'activity.word_closed',
  Unclassified: 'activity.word_unclassified',
  Restricted: 'activity.word_restricted',
  Confidential: 'activity.word_confidential',
  Secret: 'activity.word_secret',
};

/** A value as a coded word of the activity log, or the value itself when it has none. */
export const activityWord = (value: string): CodedMessage | string =>
  Object.hasOwn(WORDS, value) ? { code: WORDS[value]! } : value;

/** A role inside an action ("as employee"). */
export const roleWord = (role: Role): CodedMessage | string => activityWord(role);

/**
 * What Manage Users changed of an account ("role employee → director, group → Fire Safety"): `role` when the role
 * changed; `group` the new group's name, null for none, undefined when the group stayed.
 */
export function accessChanges(role: { from: Role; to: Role } | null, group: string | null | undefined): CodedMessage {
  const roles = role ? { from: roleWord(role.from), to: roleWord(role.to) } : undefined;
  if (group === undefined) return { code: 'activity.access_role', params: roles };
  if (!roles)
    return group === null ? { code: 'activity.access_no_group' } : { code: 'activity.access_group', params: { group } };
  return group === null
    ? { code: 'activity.access_role_and_no_group', params: roles }
    : { code: 'activity.access_role_and_group', params: { ...roles, group } };
}
