import { readView } from '#server/db/read-view.ts';
import { labItems as labItemsTable, labs as labsTable } from '#server/db/schema/index.ts';

/** The labs module's read view of the lab and its items (decision 110), under the tables' names. */
export const labs = readView(labsTable, 'labs');
export const labItems = readView(labItemsTable, 'lab_items');
