import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';

import {
  DeleteObjectCommand,
  GetObjectCommand,
  paginateListObjectsV2,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';

import type { S3StorageConfig } from '#server/config.ts';

import { AUDIT_CHECKPOINTS } from '../storage-areas.ts';
import type { ByteRange, StorageDriver, StoredObject } from './types.ts';

/** Parts of a multipart upload: 8 MB, four at a time (a 2 GB repository is 256 parts; S3 allows 10,000). */
const PART_SIZE = 8 * 1024 * 1024;

const isMissing = (err: unknown) =>
  err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.$metadata.httpStatusCode === 404);

/**
 * The SDK's client for S3_* (README "Configuration"): the uploads' driver below, and the audit trail's checkpoints
 * (server/modules/audit-trail/checkpoints.ts, decision 068), which keep a copy in the same bucket.
 */
export function s3Client(config: S3StorageConfig): S3Client {
  return new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials:
      config.accessKeyId && config.secretAccessKey
        ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
        : undefined, // the SDK's own chain: environment, instance or pod role
    // NOTE: since 3.729 the SDK adds CRC32 checksums (aws-chunked bodies with trailers) to every upload by default;
    // many S3-compatible stores (Ceph RGW, older MinIO) refuse or mis-store them. Checksums only where S3 demands them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/**
 * An S3-compatible object store (AWS S3, MinIO, Ceph RGW, ...) through the AWS SDK v3. Objects are `<area>/<id>` in
 * S3_BUCKET. Uploads stream from the received file on disk as a multipart upload; downloads stream through the portal
 * after its own access check (GetObject with Range), so the bucket stays private and no link outlives a session.
 */
export function s3Driver(config: S3StorageConfig): StorageDriver {
  const client = s3Client(config);
  const Bucket = config.bucket;
  const key = (area: string, id: string) => `${area}/${id}`;
  async function get(area: string, id: string, range?: ByteRange): Promise<Readable | null> {
    try {
      const res = await client.send(
        new GetObjectCommand({
          Bucket,
          Key: key(area, id),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      return (res.Body as Readable | undefined) ?? null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }
  return {
    kind: 's3',
    description: `s3://${Bucket}${config.endpoint ? ` at ${config.endpoint}` : ''}`,
    async put(area, id, source, contentType) {
      await new Upload({
        client,
        params: { Bucket, Key: key(area, id), Body: createReadStream(source), ContentType: contentType },
        partSize: PART_SIZE,
        queueSize: 4,
        leavePartsOnError: false, // an abandoned multipart upload is aborted, not left to cost storage
      }).done();
    },
    read: (area, id) => get(area, id),
    // A download of a private bucket streams through the portal (after its access check), so a Range request becomes
    // a ranged GetObject; @fastify/static cannot serve it, having no file on this machine to open (decision 022).
    readRange: (area, id, range) => get(area, id, range),
    async delete(area, id) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key(area, id) }));
    },
    async *list(): AsyncIterable<StoredObject> {
      for await (const page of paginateListObjectsV2({ client }, { Bucket })) {
        for (const object of page.Contents ?? []) {
          const [area, id, ...rest] = (object.Key ?? '').split('/');
          // Not an upload: another's object, or an audit checkpoint (decision 068), which the sweep must not remove.
          if (!area || !id || rest.length || area === AUDIT_CHECKPOINTS) continue;
          yield { area, id, size: object.Size ?? 0, modified: object.LastModified ?? new Date(0) };
        }
      }
    },
    async close() {
      client.destroy();
    },
  };
}
