import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Role } from '#shared/constants.ts';
import { SEARCH_KINDS, type SearchKind } from '#shared/schemas/search.ts';
import type { DbOrTx } from '#server/db/client.ts';
import { closeGroupMembers, letterMovements, letters, searchDocuments as sd } from '#server/db/schema/index.ts';
import { isClearedForClassified } from '#server/modules/letters/letters.policy.ts';
import type { Actor } from '#server/plugins/auth.ts';
import { managedGroupIds } from '#server/modules/groups/groups.policy.ts';

/**
 * Who may find what in the portal search (issue 14 §4; docs/decisions/015-search.md). Each document carries access
 * tokens derived from its own visibility facts and kind (server/db/schema/search.ts accessTokens: `open_access`, and
 * `list_access` for its title and description); a reader holds tokens built here on every request from their
 * current role, group, the groups they lead and their close groups. A document is found when the two share a token,
 * a test the GIN indexes answer. So leaving a group or close group takes its results away on the next search, and
 * nothing is re-indexed when memberships change. The two halves together repeat the rule of the module that owns the
 * item, so a result never names what its reader may not open:
 * - group material (groups.policy canViewGroup): admins, directors, its members (`member:`), its current leader
 *   (`leads:`);
 * - close-group documents (close-groups.policy): its members (`close-group:`) and admins;
 * - letters (letters.policy canViewLetter, visibleLetters): directors and admins every letter of the register, others
 *   the letters they uploaded (`user:`), Confidential and Secret ones included, and those marked to or by them
 *   (`item:<letter id>`; a classified one only when they are cleared); the recycle bin is never indexed;
 * - repositories (repositories.policy visibleRepositories): directors and admins all, others their group's
 *   (`member:`) and their own uploads (`user:`).
 */
export interface SearchReader {
  actor: Actor | null;
  /** The access tokens this reader holds. */
  tokens: string[];
}

/** letters.policy.ts and groups.policy.ts: the roles that see every letter and every group's material. */
const ROLE_TOKENS: Partial<Record<Role, string>> = { admin: 'role:admin', director: 'role:director' };

/** Loads what the reader may see: a visitor holds `public` only. */
export async function searchReader(db: DbOrTx, actor: Actor | null): Promise<SearchReader> {
  if (!actor) return { actor, tokens: ['public'] };
  const [managed, closeGroups, involved] = await Promise.all([
    managedGroupIds(db, actor),
    db
      .select({ id: closeGroupMembers.closeGroupId })
      .from(closeGroupMembers)
      .where(eq(closeGroupMembers.userId, actor.id)),
    // Letters marked to or by them (issue 17, letters.policy canViewLetter's `involved`): a classified one only when
    // they are cleared for it.
    db
      .selectDistinct({ id: letterMovements.letterId })
      .from(letterMovements)
      .innerJoin(letters, eq(letters.id, letterMovements.letterId))
      .where(
        and(
          or(eq(letterMovements.toUserId, actor.id), eq(letterMovements.fromUserId, actor.id)),
          isClearedForClassified(actor) ? undefined : eq(letters.classification, 'Normal'),
        ),
      ),
  ]);
  const role = ROLE_TOKENS[actor.role];
  const tokens = [
    'public',
    'signed-in',
    `user:${actor.id}`,
    ...(role ? [role] : []),
    ...(actor.groupId ? [`member:${actor.groupId}`] : []),
    ...managed.map((g) => `leads:${g}`),
    ...closeGroups.map((c) => `close-group:${c.id}`),
    ...involved.map((l) => `item:${l.id}`),
  ];
  return { actor, tokens };
}

/** The reader's tokens for these kinds, as documents carry them (`letter:user:<id>`), as a text[] literal. */
const tokenArray = (reader: SearchReader, kinds: readonly SearchKind[]) =>
  sql`array[${sql.join(
    kinds.flatMap((kind) => reader.tokens.map((t) => sql`${`${kind}:${t}`}`)),
    sql`, `,
  )}]::text[]`;

/** May the reader open the item (its page, its file, and so the text inside its file)? Of these kinds only. */
export function opensDocument(reader: SearchReader, kinds: readonly SearchKind[] = SEARCH_KINDS): SQL {
  return sql`(${sd.openAccess} && ${tokenArray(reader, kinds)})`;
}

/** May the reader see the item's title and description (public listings, or whatever they may open)? */
export function listsDocument(reader: SearchReader, kinds: readonly SearchKind[] = SEARCH_KINDS): SQL {
  return sql`(${sd.listAccess} && ${tokenArray(reader, kinds)})`;
}
