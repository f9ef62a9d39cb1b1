import type { Readable } from 'node:stream';
import type { LocalStorage } from '../../platform/storage/local.ts';
import type { ByteRange, ObjectInfo, ObjectStorage, PutObjectOptions } from '../../platform/storage/types.ts';

/**
 * The studio's real local storage on a disk that can run full: while `fill` is on, every write whose key
 * it matches fails as Node's fs reports a full disk (code ENOSPC, errno -28, syscall `write`).
 */
export class FullableDisk implements ObjectStorage {
  readonly kind = 'local' as const;
  private fullFor: RegExp | null = null;

  constructor(readonly disk: LocalStorage) {}

  /** The disk is full for keys that match; null frees it. */
  fill(keys: RegExp | null): void {
    this.fullFor = keys;
  }

  async put(key: string, body: Buffer | Readable, options: PutObjectOptions): Promise<ObjectInfo> {
    if (!this.fullFor?.test(key)) return this.disk.put(key, body, options);
    const error = new Error('ENOSPC: no space left on device, write') as NodeJS.ErrnoException;
    error.code = 'ENOSPC';
    error.errno = -28;
    error.syscall = 'write';
    throw error;
  }

  head(key: string): Promise<ObjectInfo | null> {
    return this.disk.head(key);
  }

  read(key: string, range?: ByteRange): Promise<Readable> {
    return this.disk.read(key, range);
  }

  delete(key: string): Promise<void> {
    return this.disk.delete(key);
  }

  ping(): Promise<boolean> {
    return this.disk.ping();
  }

  localPath(key: string): string | null {
    return this.disk.localPath(key);
  }
}
