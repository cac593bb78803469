/** The file store's refusals (server/modules/files). */
export const storage = {
  full: "The portal's storage is full. Tell the administrator.",
} as const;
