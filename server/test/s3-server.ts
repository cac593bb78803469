import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import S3rver from '@20minutes/s3rver';

export interface TestS3 {
  /** The STORAGE=s3 environment that points the portal at this server. */
  env: Record<string, string>;
  close: () => Promise<void>;
}

/**
 * An S3-protocol server for tests: s3rver (the maintained @20minutes/s3rver fork) on a free port of 127.0.0.1, keeping
 * its objects in a temporary folder, with one bucket. The portal's S3 driver talks to it with the real AWS SDK v3
 * (signatures, multipart uploads, ranged GETs, paginated listings).
 */
export async function startTestS3(bucket = 'lab-portal-test'): Promise<TestS3> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'lp-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
    // NOTE: s3rver signs bucket-level paths as "/bucket" while SDK v3 signs "/bucket/" (ListObjectsV2): its check
    // would refuse every listing. The SDK's signing is what AWS, MinIO and Ceph accept; the signature is not under test.
    allowMismatchedSignatures: true,
  });
  const { port } = await server.run();
  return {
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    close: async () => {
      await server.close().catch(() => {});
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
