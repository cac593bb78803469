/**
 * How the create form's checklist names a person (spec §2 Create New Research Group): full name, else email, else
 * the given fallback ('Unknown Employee').
 */
export function employeeLabel(person: { name?: string | null; email?: string | null }, fallback: string): string {
  return person.name?.trim() || person.email?.trim() || fallback;
}

/** People whose name or email contains the filter, case-insensitively and trimmed (Manage Members' filter box). */
export function matchesFilter(person: { name: string; email: string }, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (!needle) return true;
  return person.name.toLowerCase().includes(needle) || person.email.toLowerCase().includes(needle);
}
