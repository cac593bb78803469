import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /employees (employee directory) — being built; its issue replaces this module. */
export default function EmployeesRoute() {
  return <SectionInProgress page="employees" />;
}
