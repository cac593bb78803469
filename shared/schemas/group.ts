import { z } from 'zod';

/** {_id, name} as GET /api/groups/name answers, and the groups dropdown and selects use. */
export const groupNameJson = z.object({ _id: z.uuid(), name: z.string() });
export type GroupNameJson = z.infer<typeof groupNameJson>;

/** A group in the list of GET /api/groups (the full group page comes from GET /api/groups/id/{id}). */
export const groupSummaryJson = groupNameJson.extend({ description: z.string() });
export type GroupSummaryJson = z.infer<typeof groupSummaryJson>;
