import { z } from 'zod';

import { ConfigError, refuse, text, variable } from './variables.ts';

/** STORAGE=s3 and its S3_* variables (README "Configuration", docs/deployment.md). */
export interface S3StorageConfig {
  driver: 's3';
  /** S3_ENDPOINT: MinIO, Ceph RGW, another provider; unset for AWS itself. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY; unset: the AWS SDK's own chain (environment, instance role). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** S3_FORCE_PATH_STYLE: http://host/bucket/key rather than http://bucket.host/key (MinIO, Ceph). */
  forcePathStyle: boolean;
}
export type StorageConfig = { driver: 'local' } | S3StorageConfig;

/** STORAGE and S3_* (docs/decisions/105). */
export const storageEnv = z.object({
  STORAGE: variable((v, ctx) => {
    const driver = (v ?? 'local').toLowerCase();
    if (driver === 'local' || driver === 's3') return driver;
    return refuse(ctx, `STORAGE must be "local" or "s3", not "${v}".`);
  }),
  S3_BUCKET: text(),
  S3_ENDPOINT: variable((v, ctx) => {
    if (v === undefined || /^https?:\/\//.test(v)) return v;
    return refuse(ctx, `S3_ENDPOINT must be an http:// or https:// address, not "${v}".`);
  }),
  S3_REGION: text('us-east-1'),
  S3_ACCESS_KEY_ID: text(),
  S3_SECRET_ACCESS_KEY: text(),
  S3_FORCE_PATH_STYLE: variable((v, ctx) => {
    if (v === undefined || v === 'true' || v === 'false') return v === undefined ? undefined : v === 'true';
    return refuse(ctx, `S3_FORCE_PATH_STYLE must be true or false (got "${v}").`);
  }),
});

/** Where uploaded files live: the local disk, or an S3-compatible store with its bucket and keys checked together. */
export function storageConfig(env: z.output<typeof storageEnv>): StorageConfig {
  if (env.STORAGE === 'local') return { driver: 'local' };
  if (!env.S3_BUCKET) throw new ConfigError('STORAGE=s3 needs S3_BUCKET (the bucket that holds the uploads).');
  if (!!env.S3_ACCESS_KEY_ID !== !!env.S3_SECRET_ACCESS_KEY) {
    throw new ConfigError('Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (to use an instance role).');
  }
  return {
    driver: 's3',
    endpoint: env.S3_ENDPOINT,
    bucket: env.S3_BUCKET,
    region: env.S3_REGION!,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    // Path style is what self-hosted stores expect; AWS itself wants virtual-hosted buckets.
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? !!env.S3_ENDPOINT,
  };
}
