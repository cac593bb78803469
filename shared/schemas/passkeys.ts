import { z } from 'zod';

import { msg } from '../messages/index.ts';
import { plainText } from './common.ts';

// Passkeys as a second factor (decision 065): the bodies of /api/auth/second-factor/passkey/*. The
// browser's answers are @simplewebauthn/browser's RegistrationResponseJSON and AuthenticationResponseJSON; their
// bytes are checked by @simplewebauthn/server, so here only their shape and size (a refusal says one thing).

const invalid = msg('auth.passkey_response_invalid');
/** base64url text (WebAuthn's JSON encoding of bytes), at most `max` characters. */
const bytes = (max: number) =>
  z
    .string({ error: invalid })
    .max(max, invalid)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/, invalid);
const credentialId = bytes(1400).min(1, invalid);
const common = {
  id: credentialId,
  rawId: credentialId,
  type: z.literal('public-key', { error: invalid }),
  clientExtensionResults: z.record(z.string(), z.unknown(), { error: invalid }).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform'], { error: invalid }).optional(),
};
const transports = z.array(z.string({ error: invalid }).max(20, invalid), { error: invalid }).max(10, invalid);

/** What navigator.credentials.create() answered, as @simplewebauthn/browser's startRegistration() sends it. */
export const passkeyRegistrationResponse = z.object(
  {
    ...common,
    response: z.object(
      {
        clientDataJSON: bytes(20_000).min(1, invalid),
        attestationObject: bytes(200_000).min(1, invalid),
        transports: transports.optional(),
      },
      { error: invalid },
    ),
  },
  { error: invalid },
);

/** What navigator.credentials.get() answered, as @simplewebauthn/browser's startAuthentication() sends it. */
export const passkeyAuthenticationResponse = z.object(
  {
    ...common,
    response: z.object(
      {
        clientDataJSON: bytes(20_000).min(1, invalid),
        authenticatorData: bytes(20_000).min(1, invalid),
        signature: bytes(2_000).min(1, invalid),
        userHandle: bytes(200).optional(),
      },
      { error: invalid },
    ),
  },
  { error: invalid },
);
export type PasskeyRegistrationResponse = z.infer<typeof passkeyRegistrationResponse>;
export type PasskeyAuthenticationResponse = z.infer<typeof passkeyAuthenticationResponse>;

const ticketField = z.string().min(1).max(8000);

/** Options for adding a passkey: the sign-in ticket at enrolment, nothing when signed in (My Account). */
export const passkeyOptionsInput = z.object({ ticket: ticketField.optional() }).default({});
export type PasskeyOptionsInput = z.input<typeof passkeyOptionsInput>;

/** The name a person gives a passkey ("Office laptop"); blank: "Passkey". */
export const PASSKEY_LABEL_MAX = 60;
export const passkeyLabel = plainText().max(PASSKEY_LABEL_MAX, msg('auth.second_factor_label_too_long')).default('');

/** POST /api/auth/second-factor/passkey/register: the ticket (at enrolment) or none, a name, the browser's answer. */
export const passkeyRegisterInput = z.object({
  ticket: ticketField.optional(),
  label: passkeyLabel,
  response: passkeyRegistrationResponse,
});
export type PasskeyRegisterInput = z.input<typeof passkeyRegisterInput>;

/** POST /api/auth/second-factor/passkey/verify: the ticket of the sign-in (or none, signed in) and the signed answer. */
export const passkeyVerifyInput = z.object({
  ticket: ticketField.optional(),
  response: passkeyAuthenticationResponse,
});
export type PasskeyVerifyInput = z.input<typeof passkeyVerifyInput>;

/**
 * The options the browser passes to navigator.credentials.create()/get() (PublicKeyCredentialCreationOptionsJSON,
 * PublicKeyCredentialRequestOptionsJSON): made by @simplewebauthn/server, handed to @simplewebauthn/browser as they are.
 */
export const passkeyOptionsJson = z.looseObject({ challenge: z.string() });
export type PasskeyOptionsJson = z.infer<typeof passkeyOptionsJson>;
