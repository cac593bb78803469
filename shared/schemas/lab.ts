import { z } from 'zod';

/** A lab notice, circular, product or advertisement (spec §3 Lab). */
export const labItemJson = z.object({
  _id: z.uuid(),
  name: z.string(),
  description: z.string(),
  fileUrl: z.string().nullable(),
  validUntil: z.string().nullable(),
  createdAt: z.string(),
});
export type LabItemJson = z.infer<typeof labItemJson>;

export const labDocumentsJson = z.object({ notices: z.array(labItemJson), circulars: z.array(labItemJson) });
export type LabDocumentsJson = z.infer<typeof labDocumentsJson>;
