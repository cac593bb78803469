import { readView } from '#server/db/read-view.ts';
import { groupItems as groupItemsTable, groups as groupsTable } from '#server/db/schema/index.ts';

/** The groups module's read view of the groups and their items (decision 110), under the tables' names. */
export const groups = readView(groupsTable, 'groups');
export const groupsAs = <Name extends string>(name: Name) => readView(groupsTable, name);
export const groupItems = readView(groupItemsTable, 'group_items');
