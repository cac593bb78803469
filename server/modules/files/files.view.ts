import { readView } from '#server/db/read-view.ts';
import { files as filesTable } from '#server/db/schema/index.ts';

/** The files module's read view of the stored files (decision 110), under the table's name: a file's name, size, type. */
export const files = readView(filesTable, 'files');
export const filesAs = <Name extends string>(name: Name) => readView(filesTable, name);
