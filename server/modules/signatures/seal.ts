import { sign } from 'node:crypto';

import type { Seal } from '#server/config.ts';

import { CadesSigner } from './cms.ts';

/** The signer that seals with the lab's key (SIGNING_P12, decision 118). */
export function sealSigner(seal: Seal): CadesSigner {
  return new CadesSigner(
    () => Promise.resolve(seal.chain),
    (toSign) => Promise.resolve(sign('sha256', toSign, seal.key)),
  );
}
