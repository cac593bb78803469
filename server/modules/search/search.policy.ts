import { type SQL, sql } from 'drizzle-orm';

import type { Role } from '#shared/constants.ts';
import { SEARCH_KINDS, type SearchKind } from '#shared/schemas/search.ts';

import { searchDocuments as sd } from '#server/db/schema/index.ts';
import { staleClassifications } from '#server/lib/step-up.policy.ts';
import { isClearedForClassified } from '#server/modules/letters/letters.policy.ts';
import type { Actor } from '#server/plugins/auth.ts';

/**
 * Who may find what in the portal search (docs/decisions/015-search.md). Each document carries access
 * tokens derived from its own visibility facts and kind (server/db/schema/search.ts accessTokens: `open_access`, and
 * `list_access` for its title and description); a reader holds tokens built here on every request from their
 * current role, group, the groups they lead and their close groups. A document is found when the two share a token,
 * a test the GIN indexes answer. So leaving a group or close group takes its results away on the next search, and
 * nothing is re-indexed when memberships change. The two halves together repeat the rule of the module that owns the
 * item, so a result never names what its reader may not open:
 * - group material (groups.policy 'groups.view'): admins, directors, its members (`member:`), its current leader
 *   (`leads:`);
 * - close-group documents (close-groups.policy): its members (`close-group:`) and admins; a Confidential or Secret one
 *   not for a member who is not cleared for it (close_groups.see_document, decision 072): those few documents of
 *   their close groups are named in `hidden` and left out, whatever the tokens say;
 * - letters (letters.policy canViewLetter, visibleLetters): directors and admins every letter of the register, others
 *   the letters they uploaded (`user:`), Confidential and Secret ones included, and those marked to or by them
 *   (`marked:<user>`, which the letter's entry carries for each such person, kept by the database when a letter is
 *   marked; a classified one under `marked-classified:<user>`, held only by those cleared); the recycle bin is never
 *   indexed;
 * - repositories (repositories.policy visibleRepositories): directors and admins all, others their group's
 *   (`member:`) and their own uploads (`user:`).
 */
export interface SearchReader {
  actor: Actor | null;
  /** The access tokens this reader holds. */
  tokens: string[];
  /** Close-group documents of their close groups that this reader may not see (decision 072). */
  hidden: string[];
}

/** letters.policy.ts and groups.policy.ts: the roles that see every letter and every group's material. */
const ROLE_TOKENS: Partial<Record<Role, string>> = { admin: 'role:admin', director: 'role:director' };

/** What a reader's tokens are made of besides their own row, loaded by the service (searchReader). */
export interface ReaderFacts {
  /** The groups they currently lead (groups.queries managedGroupIds). */
  managed: string[];
  /** The close groups they are a member of. */
  closeGroups: string[];
  /** The documents of those they may not see (close-groups.files hiddenCloseGroupDocuments). */
  hidden?: string[];
}

/** What the reader may see, from who they are and the facts loaded for them: a visitor holds `public` only. */
export function readerOf(actor: Actor | null, { managed, closeGroups, hidden = [] }: ReaderFacts): SearchReader {
  if (!actor) return { actor, tokens: ['public'], hidden: [] };
  const role = ROLE_TOKENS[actor.role];
  const tokens = [
    'public',
    'signed-in',
    `user:${actor.id}`,
    ...(role ? [role] : []),
    ...(actor.groupId ? [`member:${actor.groupId}`] : []),
    ...managed.map((g) => `leads:${g}`),
    ...closeGroups.map((c) => `close-group:${c}`),
    // Letters marked to or by them (decision 020, letters.policy canViewLetter's `involved`): each letter's entry names
    // them (markedAccess), a Confidential or Secret one under its own token, held only when they are cleared for it.
    // One token however many letters they handled (one per letter crashed the search at 5,001).
    `marked:${actor.id}`,
    ...(isClearedForClassified(actor) ? [`marked-classified:${actor.id}`] : []),
  ];
  return { actor, tokens, hidden };
}

/** The reader's tokens for these kinds, as documents carry them (`letter:user:<id>`): one text[] parameter. */
const tokenArray = (reader: SearchReader, kinds: readonly SearchKind[]) =>
  sql`${sql.param(kinds.flatMap((kind) => reader.tokens.map((t) => `${kind}:${t}`)))}::text[]`;

/** Not one of the reader's hidden close-group documents (one uuid[] parameter, often none). */
const notHidden = (reader: SearchReader) =>
  reader.hidden.length
    ? sql` and not (${sd.kind} = 'close-group-document' and ${sd.itemId} = any(${sql.param(reader.hidden)}::uuid[]))`
    : sql``;

/** May the reader open the item (its page, its file, and so the text inside its file)? Of these kinds only. */
export function opensDocument(reader: SearchReader, kinds: readonly SearchKind[] = SEARCH_KINDS): SQL {
  return sql`(${sd.openAccess} && ${tokenArray(reader, kinds)}${notHidden(reader)})`;
}

/** May the reader see the item's title and description (public listings, or whatever they may open)? */
export function listsDocument(reader: SearchReader, kinds: readonly SearchKind[] = SEARCH_KINDS): SQL {
  return sql`(${sd.listAccess} && ${tokenArray(reader, kinds)}${notHidden(reader)})`;
}

/**
 * The classifications whose files this reader may not open now without a step-up (server/lib/step-up.policy.ts,
 * letters.policy 'letters.open' and close-groups.policy 'close_groups.open', decisions 066 and 095): the search
 * neither matches nor shows the text inside a letter's or a close-group document's file of these until they give it.
 */
export const closedClassifications = (reader: SearchReader): string[] => staleClassifications(reader.actor);

/**
 * Classified material (decision 095): a letter or a close-group document of any class above the lowest (a letter's
 * Normal, a document's Unclassified), Restricted included. No snippet of such an item is shown to anyone, cleared or
 * not, step-up or not: its result is its title, and opening it is the read the audit trail records.
 */
export const classifiedDocument = (): SQL =>
  sql`coalesce(${sd.classification}, 'Unclassified') not in ('Normal', 'Unclassified')`;
