/**
 * The activity log stores each action as an English sentence (server/modules/audit, decision 004): the record stays
 * as written. In another language the common sentences are shown translated; names, emails and ids in them
 * are kept as they are, and a sentence not listed here is shown as stored.
 */
const PATTERNS: { key: string; pattern: RegExp; names: string[] }[] = [
  { key: 'signedIn', pattern: /^Signed in$/, names: [] },
  { key: 'changedOwnPassword', pattern: /^Changed own password$/, names: [] },
  { key: 'registered', pattern: /^Registered as (\S+) \(requested role (\S+)\)$/, names: ['email', 'role'] },
  { key: 'approved', pattern: /^Approved user (\S+) as (\S+) in group (.+)$/, names: ['email', 'role', 'group'] },
  { key: 'rejected', pattern: /^Rejected user (\S+): (.*)$/, names: ['email', 'reason'] },
  { key: 'resetPassword', pattern: /^Reset the password of (\S+)$/, names: ['email'] },
  { key: 'uploadedLetter', pattern: /^Uploaded letter (\S+)$/, names: ['id'] },
  { key: 'updatedLetter', pattern: /^Updated letter (\S+) \((.*)\)$/, names: ['id', 'fields'] },
  { key: 'binnedLetter', pattern: /^Moved letter (\S+) to the recycle bin$/, names: ['id'] },
  { key: 'restoredLetter', pattern: /^Restored letter (\S+) from the recycle bin$/, names: ['id'] },
  { key: 'uploadedPhoto', pattern: /^Uploaded lab photo "(.*)"$/, names: ['name'] },
  { key: 'updatedPhoto', pattern: /^Updated lab photo "(.*)"$/, names: ['name'] },
  { key: 'deletedPhoto', pattern: /^Deleted lab photo "(.*)"$/, names: ['name'] },
  { key: 'updatedGroup', pattern: /^Updated group (.+)$/, names: ['group'] },
  { key: 'createdCloseGroup', pattern: /^Created close group (.+)$/, names: ['group'] },
  { key: 'addedToGroup', pattern: /^Added (\S+@\S+) to group (.+)$/, names: ['email', 'group'] },
  { key: 'removedFromGroup', pattern: /^Removed (\S+@\S+) from group (.+)$/, names: ['email', 'group'] },
];

export type Translate = (key: string, values?: Record<string, string>) => string;

/** `action` in the reader's language: `t` is the people namespace's (its logs.actions.* sentences). */
export function translateAction(action: string, language: string, t: Translate): string {
  if (language === 'en') return action;
  for (const { key, pattern, names } of PATTERNS) {
    const match = pattern.exec(action);
    if (!match) continue;
    const values = Object.fromEntries(names.map((name, i) => [name, match[i + 1] ?? '']));
    return t(`logs.actions.${key}`, values);
  }
  return action;
}
