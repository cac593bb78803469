import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { createdAt, id, updatedAt } from './common.ts';
import { files } from './files.ts';
import { groups, labs } from './labs.ts';

export const roleEnum = pgEnum('role', ['employee', 'director', 'associate_director', 'pending_director', 'admin']);
/** Server-side account states (spec §4 leaves them "not shown"; see docs/decisions/003-accounts-and-sessions.md). */
export const userStatusEnum = pgEnum('user_status', ['pending', 'approved', 'rejected', 'deactivated']);

/** A member of staff: account, personal and professional details (1:1, so kept in one row), social links. */
export const users = pgTable(
  'users',
  {
    id: id(),
    email: text().notNull(),
    /**
     * argon2id of the portal's own password; null for an account that signs in through the lab's directory or single
     * sign-on, whose password the portal never sees or keeps (decision 061).
     */
    passwordHash: text(),
    /** Where this person proves who they are: `local` (the portal's password), `directory` (LDAP/AD), `sso` (OIDC). */
    authSource: text().$type<'local' | 'directory' | 'sso'>().notNull().default('local'),
    /** The directory entry's DN (a directory account), refreshed at each sign-in and by the directory check. */
    directoryDn: text(),
    /** When the directory was last asked about this person (sign-in or the minute check). */
    directoryCheckedAt: timestamp({ withTimezone: true }),
    /** The OIDC issuer and subject this account is linked to (never linked by an unverified email). */
    ssoIssuer: text(),
    ssoSubject: text(),
    role: roleEnum().notNull().default('employee'),
    status: userStatusEnum().notNull().default('pending'),
    statusReason: text(),
    labId: uuid().references(() => labs.id, { onDelete: 'set null' }),
    groupId: uuid().references(() => groups.id, { onDelete: 'set null' }),
    photoFileId: uuid().references(() => files.id, { onDelete: 'set null' }),
    about: text().notNull().default(''),
    // personalDetails
    name: text().notNull(),
    dob: date(),
    mobile: text().notNull().default(''),
    address: text().notNull().default(''),
    gender: text().notNull().default(''),
    maritalStatus: text().notNull().default(''),
    bloodGroup: text().notNull().default(''),
    emergencyName: text().notNull().default(''),
    emergencyRelationship: text().notNull().default(''),
    emergencyMobile: text().notNull().default(''),
    // professionalDetails
    designation: text().notNull().default(''),
    cadre: text().notNull().default(''),
    intercom: text().notNull().default(''),
    internetEmail: text().notNull().default(''),
    dronaEmail: text().notNull().default(''),
    pis: text().notNull().default(''),
    aebasId: text().notNull().default(''),
    joiningDate: date(),
    skills: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    qualifications: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    // employmentPeriod
    employmentFrom: date(),
    employmentTo: date(),
    // socialLinks
    linkedin: text().notNull().default(''),
    twitter: text().notNull().default(''),
    facebook: text().notNull().default(''),
    github: text().notNull().default(''),
    /** When the portal password was last set; PASSWORD_MAX_AGE_DAYS counts from it (decision 117). */
    passwordChangedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Tokens issued before this moment are refused (password change, deactivation). */
    sessionsValidAfter: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /**
     * Cleared by an admin to receive Confidential and Secret letters (only directors, admins and cleared
     * users may be marked such a letter; see docs/decisions/020-dak-movement.md).
     */
    classifiedClearance: boolean().notNull().default(false),
    /**
     * The person's language: their mail is written in it (decision 076), and once they have chosen it the portal opens
     * in it at sign-in (decision 102).
     */
    language: text().$type<'en' | 'hi'>().notNull().default('en'),
    /** When the person chose `language` (decision 102); null while it is the default, which never overrides a browser. */
    languageChosenAt: timestamp({ withTimezone: true }),
    /** Per kind of mail, how the person wants it (decision 081): kinds left out keep their default. */
    mailPreferences: jsonb().$type<Partial<Record<string, 'now' | 'digest' | 'off'>>>().notNull().default({}),
    approvedAt: timestamp({ withTimezone: true }),
    approvedBy: uuid(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_sso_idx').on(t.ssoIssuer, t.ssoSubject),
    index('users_directory_idx')
      .on(t.directoryCheckedAt)
      .where(sql`${t.authSource} = 'directory'`),
    index('users_status_idx').on(t.status, t.createdAt),
    index('users_group_idx').on(t.groupId),
    index('users_role_idx').on(t.role),
    index('users_name_idx').on(t.name),
    // Directory, Manage Users and log searches: name or email contains the text (pg_trgm, migration 0001).
    index('users_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    check('users_language_check', sql`${t.language} in ('en', 'hi')`),
  ],
);

/** The argon2id hashes of a person's earlier portal passwords, kept for PASSWORD_HISTORY (decision 117). */
export const passwordHistory = pgTable(
  'password_history',
  {
    id: id(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    passwordHash: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('password_history_user_idx').on(t.userId, t.createdAt)],
);

/** Documents an administrator keeps on a user's record (Manage Users). */
export const userDocuments = pgTable(
  'user_documents',
  {
    id: id(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fileId: uuid()
      .notNull()
      .references(() => files.id),
    filename: text().notNull(),
    uploadedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('user_documents_user_idx').on(t.userId)],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
