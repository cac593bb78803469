/** A UUID as the portal hands them out (any version, either case): record ids, session ids, the ids of cursors. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Is this a UUID? The one check of an id's shape before it reaches PostgreSQL's `uuid` (which refuses others). */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
