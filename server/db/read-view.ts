import { getTableColumns, getTableName, sql, Subquery } from 'drizzle-orm';
import { PgDialect, type PgTable, QueryBuilder, type SubqueryWithSelection } from 'drizzle-orm/pg-core';
import { SelectionProxyHandler } from 'drizzle-orm/selection-proxy';

const dialect = new PgDialect({ casing: 'snake_case' });
const builder = new QueryBuilder(dialect);

/**
 * A module's read view of its own table, for other modules (docs/decisions/110-owners-export-read-views.md): the
 * columns the owner chooses, under a name, read-only (Drizzle cannot insert into, update or delete from a subquery).
 * Another module joins it like the table, in the same one query: `(select "id", "name", … from "users") "users"`,
 * which PostgreSQL folds back into a plain join (the same plan, the same indexes). Its SQL text is made once here, so
 * a query that joins the view takes no longer to build than one that joined the table.
 */
export function readView<T extends PgTable, Name extends string, Left extends keyof T['_']['columns'] = never>(
  table: T,
  name: Name,
  leaveOut: readonly Left[] = [],
): SubqueryWithSelection<Omit<T['_']['columns'], Left>, Name> {
  const columns = { ...getTableColumns(table) };
  for (const key of leaveOut) delete columns[key as string];
  const text = dialect.sqlToQuery(
    builder
      .select(columns)
      .from(table as PgTable)
      .getSQL(),
  ).sql;
  return new Proxy(
    new Subquery(sql.raw(text), columns, name, false, [getTableName(table)]),
    new SelectionProxyHandler({ alias: name, sqlAliasedBehavior: 'alias', sqlBehavior: 'error' }),
  ) as unknown as SubqueryWithSelection<Omit<T['_']['columns'], Left>, Name>;
}

/**
 * A view's name in a locking clause (`.for('share', { of: lockOf(users) })` is `for share of "users"`): PostgreSQL
 * locks the rows of the table the view reads.
 */
export const lockOf = (view: { _: { alias: string } }): PgTable => sql.identifier(view._.alias) as unknown as PgTable;
