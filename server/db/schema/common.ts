import { timestamp, uuid } from 'drizzle-orm/pg-core';

/** Every table's primary key: a random UUID, exposed in JSON as `_id`. */
export const id = () => uuid().primaryKey().defaultRandom();
export const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
