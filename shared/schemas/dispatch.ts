import { z } from 'zod';

import { msg } from '../messages/index.ts';
import { isoDate, plainText } from './common.ts';

/** How a letter leaves the lab (decision 120). */
export const DISPATCH_MODES = ['post', 'speed_post', 'hand', 'email'] as const;
export type DispatchModeName = (typeof DISPATCH_MODES)[number];

export const dispatchRecipientInput = z.object({
  name: plainText({ error: msg('dispatch.recipient_name_required') })
    .min(1, msg('dispatch.recipient_name_required'))
    .max(200),
  address: plainText().max(1000).default(''),
  email: z
    .string()
    .trim()
    .max(320, msg('dispatch.email_invalid'))
    .refine((v) => v === '' || z.email().safeParse(v).success, msg('dispatch.email_invalid'))
    .optional()
    .transform((v) => v || null),
});

/**
 * A dispatch: the date (today by default), the mode and the recipients. By post, speed post or hand each needs an
 * address; by email each an email address.
 */
export const dispatchInput = z
  .object({
    date: isoDate().optional(),
    mode: z.enum(DISPATCH_MODES, { error: msg('dispatch.mode_invalid') }),
    recipients: z
      .array(dispatchRecipientInput, { error: msg('dispatch.recipients_required') })
      .min(1, msg('dispatch.recipients_required'))
      .max(50),
  })
  .superRefine((v, ctx) => {
    v.recipients.forEach((r, i) => {
      if (v.mode === 'email' && !r.email)
        ctx.addIssue({ code: 'custom', message: msg('dispatch.email_required'), path: ['recipients', i, 'email'] });
      if (v.mode !== 'email' && !r.address)
        ctx.addIssue({ code: 'custom', message: msg('dispatch.address_required'), path: ['recipients', i, 'address'] });
    });
  });
export type DispatchInput = z.input<typeof dispatchInput>;
export type DispatchValues = z.output<typeof dispatchInput>;

export const dispatchParams = z.object({
  id: z.uuid(msg('common.invalid_id')),
  itemId: z.uuid(msg('common.invalid_id')),
});

export const dispatchRecipientJson = z.object({
  name: z.string(),
  address: z.string(),
  email: z.string().nullable(),
  /** By email: where the mail is (pending, queued, sent, failed…); null otherwise. */
  delivery: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});

export const dispatchJson = z.object({
  _id: z.string(),
  outwardNumber: z.string(),
  serial: z.number(),
  year: z.number(),
  date: z.string(),
  mode: z.enum(DISPATCH_MODES),
  subject: z.string(),
  classification: z.string(),
  efile: z.object({ _id: z.string(), number: z.string() }),
  itemId: z.string(),
  itemSeq: z.number().nullable(),
  fileUrl: z.string(),
  dispatchedBy: z.string().nullable(),
  createdAt: z.string(),
  recipients: z.array(dispatchRecipientJson),
});
export type DispatchJson = z.infer<typeof dispatchJson>;

/** The register's filters: words (outward number, subject, file, recipient), mode, year; paged on the server. */
export const dispatchListQuery = z.object({
  q: plainText().max(200).optional(),
  mode: z.enum(DISPATCH_MODES, { error: msg('dispatch.mode_invalid') }).optional(),
  year: z.coerce.number().int().min(2000).max(2100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});
export type DispatchListQuery = z.infer<typeof dispatchListQuery>;
