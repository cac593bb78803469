/** `%text%` for LIKE / ILIKE, with the user's own % _ \ taken literally (PostgreSQL's default escape is \). */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
