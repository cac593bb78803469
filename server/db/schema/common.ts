import { type AnyColumn, sql } from 'drizzle-orm';
import { timestamp, uuid } from 'drizzle-orm/pg-core';

/** Every table's primary key: a random UUID, exposed in JSON as `_id`. */
export const id = () => uuid().primaryKey().defaultRandom();
export const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

/** A row belongs to the lab or to one group, never both nor neither (a CHECK of the tables that may belong to either). */
export const oneOwner = (lab: AnyColumn, group: AnyColumn) => sql`(${lab} is null) <> (${group} is null)`;
