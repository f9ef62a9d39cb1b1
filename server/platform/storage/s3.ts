import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  GetObjectTaggingCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { STORAGE_TAG_NAMES, type StorageTagName } from '../../../common/api/media.constants.ts';
import { isValidKey } from './keys.ts';
import {
  type ByteRange,
  type ObjectInfo,
  ObjectNotFoundError,
  type ObjectStorage,
  type PutObjectOptions,
  type StorageTags,
} from './types.ts';
import { storageError } from './unavailable.ts';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle?: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
}

const CONNECTION_TIMEOUT_MS = 5_000;

/** S3 allows letters, digits, spaces and `+ - = . _ : / @` in tag values, at most 256 of them. */
function tagValue(value: string): string {
  return value.replace(/[^\p{L}\p{N} +\-=._:/@]/gu, '_').slice(0, 256);
}

function encodeTags(tags: StorageTags): string {
  const params = new URLSearchParams();
  for (const name of STORAGE_TAG_NAMES) {
    const value = tags[name];
    if (value !== undefined && value !== '') params.set(name, tagValue(value));
  }
  return params.toString();
}

function isTagName(name: string): name is StorageTagName {
  return (STORAGE_TAG_NAMES as readonly string[]).includes(name);
}

function isNotFound(error: unknown): boolean {
  if (error instanceof S3ServiceException) {
    return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
  }
  return false;
}

/**
 * S3-compatible object storage. Tags are S3 object tags (the Tagging header on PUT), so lifecycle
 * rules can act on them (e.g. expire `Classification=temporary`). Checksums are only sent when a
 * call requires them, which keeps MinIO, R2 and other S3-compatible services happy.
 */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? false,
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A host that does not answer at all fails the call (as unavailable) instead of holding it for minutes.
      requestHandler: { connectionTimeout: CONNECTION_TIMEOUT_MS },
    });
  }

  /** Sends a command; an outage (no connection, 5xx, SlowDown, timeouts) rejects with StorageUnavailableError. */
  private async call<T>(send: () => Promise<T>, body?: unknown): Promise<T> {
    try {
      return await send();
    } catch (error) {
      throw storageError(error, body);
    }
  }

  localPath(): string | null {
    return null;
  }

  async put(key: string, body: Buffer | Readable, options: PutObjectOptions): Promise<ObjectInfo> {
    if (!isValidKey(key)) throw new RangeError(`invalid storage key: ${key}`);
    let payload: Buffer | Readable = body;
    let length = Buffer.isBuffer(body) ? body.length : options.contentLength;
    if (length === undefined) {
      // PutObject needs a length to stream; buffer bodies of unknown length.
      payload = await toBuffer(body as Readable);
      length = payload.length;
    }
    const tags = options.tags ?? {};
    await this.call(
      () =>
        this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: key,
            Body: payload,
            ContentLength: length,
            ContentType: options.contentType,
            Tagging: encodeTags(tags) || undefined,
            Metadata: { 'storage-class': options.storageClass },
          }),
        ),
      payload,
    );
    return { key, size: length, contentType: options.contentType, tags };
  }

  async head(key: string): Promise<ObjectInfo | null> {
    if (!isValidKey(key)) return null;
    try {
      const head = await this.call(() => this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })));
      const tagging = await this.call(() =>
        this.client.send(new GetObjectTaggingCommand({ Bucket: this.bucket, Key: key })),
      );
      const tags: StorageTags = {};
      for (const tag of tagging.TagSet ?? []) {
        if (tag.Key && isTagName(tag.Key)) tags[tag.Key] = tag.Value ?? '';
      }
      return {
        key,
        size: head.ContentLength ?? 0,
        contentType: head.ContentType ?? 'application/octet-stream',
        tags,
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    if (!isValidKey(key)) throw new ObjectNotFoundError(key);
    try {
      const result = await this.call(() =>
        this.client.send(
          new GetObjectCommand({
            Bucket: this.bucket,
            Key: key,
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        ),
      );
      const stream = result.Body;
      if (!(stream instanceof Readable)) throw new Error('S3 returned no readable body');
      return stream;
    } catch (error) {
      if (isNotFound(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    if (!isValidKey(key)) return;
    await this.call(() => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })));
  }

  async ping(): Promise<boolean> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return true;
    } catch {
      return false;
    }
  }
}

async function toBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
