/** The portal search (server/modules/search, shared/schemas/search.ts). */
export const search = {
  bad_cursor: 'This list has changed. Please search again.',
  query_too_short: 'Type at least {{min}} characters to search.',
  query_too_long: 'Search text must be at most {{max}} characters.',
  unknown_kind: 'Unknown kind "{{kind}}". Kinds: {{kinds}}.',
  limit_invalid: 'Limit must be a whole number from 1 to {{max}}.',
} as const;
