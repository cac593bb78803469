import { z } from 'zod';

import { ROLES, USER_STATUSES } from '../constants.ts';
import { msg } from '../messages/index.ts';

/**
 * A first single sign-on waiting for an administrator to link it to an account (decision 090): the provider's
 * identity (issuer, and the email and name it gave, unverified) and the portal account with that email.
 */
export const ssoLinkRequestJson = z.object({
  _id: z.uuid(),
  issuer: z.string(),
  provider: z.object({ email: z.string(), name: z.string().nullable() }),
  account: z.object({
    _id: z.uuid(),
    name: z.string(),
    email: z.string(),
    role: z.enum(ROLES),
    status: z.enum(USER_STATUSES),
  }),
  requestedAt: z.string(),
});
export type SsoLinkRequestJson = z.infer<typeof ssoLinkRequestJson>;

/** `:requestId` of the link request routes. */
export const ssoLinkRequestParam = z.object({ requestId: z.uuid(msg('admin.sso_request_id_invalid')) });
