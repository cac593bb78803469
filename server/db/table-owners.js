// Which module of server/modules/ owns each table of the Drizzle schema (server/db/schema/), and the few places
// allowed to read or write a table they do not own (docs/decisions/103-each-module-owns-its-tables.md). Another
// module reads or writes a table only through the owner's exported functions (its `<module>.queries.ts` or service).
// The ESLint rule `ownership/tables` (scripts/lint/table-ownership.js, run by npm run lint) checks it: a file of
// server/modules/<m>/ that imports another module's Drizzle table, or names that table in SQL text
// (`from letters`, `join close_group_members`, `insert into notifications`, `update users`), fails, naming both sides.
// A table added to the schema without an owner here fails too.

/**
 * SQL name of each table → the module (folder of server/modules/) that owns it. The office and contacts of a lab and of
 * a group share their tables, a row belonging to one of them (lab_id or group_id): each module writes only its rows.
 */
export const TABLE_OWNERS = {
  acknowledgement_requests: 'acknowledgements',
  acknowledgements: 'acknowledgements',
  activity_logs: 'audit',
  audit_chain_head: 'audit-trail',
  audit_events: 'audit-trail',
  close_group_documents: 'close-groups',
  close_group_members: 'close-groups',
  close_groups: 'close-groups',
  contact_infos: ['labs', 'groups'],
  dak_delegations: 'letters',
  director_entries: 'director-history',
  dispatch_counters: 'dispatch',
  dispatch_recipients: 'dispatch',
  dispatches: 'dispatch',
  efile_copies: 'efiles',
  efile_draft_versions: 'efiles',
  efile_drafts: 'efiles',
  efile_counters: 'efiles',
  efile_heads: 'efiles',
  efile_items: 'efiles',
  efile_movements: 'efiles',
  efile_note_versions: 'efiles',
  efile_notes: 'efiles',
  efile_participants: 'efiles',
  efile_settings: 'efiles',
  efiles: 'efiles',
  feedback: 'site',
  file_ocr: 'files',
  file_previews: 'files',
  file_texts: 'search',
  files: 'files',
  group_items: 'groups',
  groups: 'groups',
  lab_items: 'labs',
  lab_photos: 'gallery',
  labs: 'labs',
  letter_counters: 'letters',
  letter_history: 'letters',
  letter_movements: 'letters',
  letters: 'letters',
  mail_outbox: 'mail',
  notifications: 'notifications',
  office_members: ['labs', 'groups'],
  password_history: 'users',
  password_reset_tokens: 'auth',
  portal_settings: 'auth',
  rate_limits: 'auth',
  recovery_codes: 'mfa',
  search_documents: 'search',
  sessions: 'auth',
  signature_checks: 'signatures',
  site_pages: 'site',
  software_repos: 'repositories',
  sso_exchange_codes: 'auth',
  sso_link_requests: 'auth',
  syslog_cursor: 'logs',
  syslog_outbox: 'logs',
  trial_repos: 'repositories',
  trusted_roots: 'signatures',
  user_documents: 'users',
  user_factors: 'mfa',
  users: 'users',
  webauthn_challenges: 'mfa',
};

/**
 * Allowed reach-ins, each with why: `files`, a regular expression over the path from the repository's root, or
 * `paths`, the files themselves; `tables`, the tables they may name (`*`: any). The rule looks only at server/modules/:
 * migrations (the audit trail's and the search index's triggers), demo data and the database tools are outside it.
 */
export const OWNERSHIP_EXCEPTIONS = [
  {
    files: '\\.test\\.tsx?$|\\.test-helpers\\.ts$|\\.fixtures\\.ts$',
    tables: ['*'],
    why: 'Tests set up and check rows of every module they cross, as a person would see them.',
  },
  // Temporary, each to be removed with its files' fix (decision 103); a new file or table still fails.
  {
    paths: ['server/modules/letters/letters.notifications.ts'],
    tables: ['users', 'director_entries'],
    why: "Temporary: the dak's morning notices choose a letter's officers in SQL (the holder's group's directors); to become the owners' functions.",
  },
  {
    paths: ['server/modules/mfa/mfa.service.ts', 'server/modules/mfa/ticket.ts'],
    tables: ['sessions', 'users'],
    why: "Temporary: MFA ends a person's sessions and checks that a sign-in ticket's session has not started; auth already imports MFA (the step-up's code check), so these wait for the sessions' functions to leave auth.",
  },
  {
    paths: [
      'server/modules/admin/admin.service.ts',
      'server/modules/auth/auth.service.ts',
      'server/modules/auth/bootstrap.ts',
      'server/modules/auth/directory-accounts.ts',
      'server/modules/auth/directory-collision.ts',
      'server/modules/auth/password-reset.ts',
      'server/modules/auth/registration-notice.ts',
      'server/modules/auth/sso-links.service.ts',
      'server/modules/auth/sso.service.ts',
    ],
    tables: ['users'],
    why: "Temporary: accounts made, approved and changed by sign-in, registration and Manage Users, to move behind the users module's functions.",
  },
  {
    paths: [
      'server/modules/efiles/efiles.detail.ts',
      'server/modules/efiles/efiles.lists.ts',
      'server/modules/efiles/efiles.movements.ts',
      'server/modules/efiles/efiles.notes.ts',
      'server/modules/efiles/efiles.numbers.ts',
      'server/modules/efiles/efiles.pendency.ts',
      'server/modules/efiles/efiles.route.ts',
      'server/modules/efiles/efiles.service.ts',
    ],
    tables: ['users', 'groups'],
    why: "Temporary: the e-files' lists join a person's or a group's name; to read the owners' views (decision 110).",
  },
];
