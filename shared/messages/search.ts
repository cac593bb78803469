/** The portal search (server/modules/search). */
export const search = {
  bad_cursor: 'This list has changed. Please search again.',
} as const;
