import { readView } from '#server/db/read-view.ts';
import { users as usersTable } from '#server/db/schema/index.ts';

/**
 * The users module's read view of the accounts (decision 110), under the table's name so that another module's query
 * reads as before: every column but the password hash, which only this module's look-ups return (to sign in).
 * Accounts are written through the users module's functions.
 */
export const users = readView(usersTable, 'users', ['passwordHash']);

/** The same view under another name, for a query that joins several people (the sender, the receiver). */
export const usersAs = <Name extends string>(name: Name) => readView(usersTable, name, ['passwordHash']);
