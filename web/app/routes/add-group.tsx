/** /add-group: the same Create New Research Group screen as /admin/add-groups (spec §2 lists both; admin guard). */
export { default } from './admin/add-groups.tsx';
