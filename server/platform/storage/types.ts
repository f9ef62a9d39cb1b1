import type { Readable } from 'node:stream';
import type { StorageClass, StorageTagName } from '../../../common/api/media.constants.ts';

export type StorageTags = Partial<Record<StorageTagName, string>>;

export interface PutObjectOptions {
  contentType: string;
  storageClass: StorageClass;
  tags?: StorageTags;
  /** Byte length of a stream body. S3 needs it to stream; without it the body is buffered first. */
  contentLength?: number;
}

export interface ObjectInfo {
  key: string;
  size: number;
  contentType: string;
  tags: StorageTags;
}

export interface ByteRange {
  start: number;
  /** Inclusive, as in HTTP Range. */
  end: number;
}

/** Thrown (and rejected with) when a key does not exist or is not a valid key. */
export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`object not found: ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

/** Where media bytes live: local disk in embedded mode, S3-compatible storage at scale. */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer | Readable, options: PutObjectOptions): Promise<ObjectInfo>;
  /** Resolves null when the key does not exist. */
  head(key: string): Promise<ObjectInfo | null>;
  /** Streams the object, or the inclusive byte range of it. Rejects with ObjectNotFoundError when the key does not exist. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  ping(): Promise<boolean>;
  /** The file behind a key when the storage is a local disk (lets ffmpeg read it in place); null otherwise. */
  localPath(key: string): string | null;
}
