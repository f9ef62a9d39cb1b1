import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, constants, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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

interface Sidecar {
  contentType: string;
  storageClass: string;
  tags: StorageTags;
}

/**
 * Media on local disk: `<root>/<key>` holds the bytes, `<root>/.meta/<key>.json` the content type,
 * class and tags (keys never start a segment with a dot, so the sidecars are unreachable by key).
 * Writes go to a temporary file first and are renamed into place, so readers never see half a file.
 */
export class LocalStorage implements ObjectStorage {
  readonly kind = 'local' as const;

  constructor(readonly root: string) {}

  private filePath(key: string): string {
    if (!isValidKey(key)) throw new ObjectNotFoundError(key);
    return path.join(this.root, ...key.split('/'));
  }

  private sidecarPath(key: string): string {
    return path.join(this.root, '.meta', `${key.split('/').join(path.sep)}.json`);
  }

  localPath(key: string): string | null {
    return isValidKey(key) ? this.filePath(key) : null;
  }

  async put(key: string, body: Buffer | Readable, options: PutObjectOptions): Promise<ObjectInfo> {
    try {
      return await this.write(key, body, options);
    } catch (error) {
      throw storageError(error, body);
    }
  }

  private async write(key: string, body: Buffer | Readable, options: PutObjectOptions): Promise<ObjectInfo> {
    const file = this.filePath(key);
    await mkdir(path.dirname(file), { recursive: true });
    const partial = path.join(path.dirname(file), `.${randomUUID()}.part`);
    try {
      if (Buffer.isBuffer(body)) await writeFile(partial, body);
      else await pipeline(body, createWriteStream(partial));
      const sidecar: Sidecar = {
        contentType: options.contentType,
        storageClass: options.storageClass,
        tags: options.tags ?? {},
      };
      const meta = this.sidecarPath(key);
      await mkdir(path.dirname(meta), { recursive: true });
      await writeFile(meta, JSON.stringify(sidecar));
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    const { size } = await stat(file);
    return { key, size, contentType: options.contentType, tags: options.tags ?? {} };
  }

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      return await this.info(key);
    } catch (error) {
      throw storageError(error);
    }
  }

  private async info(key: string): Promise<ObjectInfo | null> {
    if (!isValidKey(key)) return null;
    try {
      const info = await stat(this.filePath(key));
      if (!info.isFile()) return null;
      const sidecar = await this.readSidecar(key);
      return {
        key,
        size: info.size,
        contentType: sidecar?.contentType ?? 'application/octet-stream',
        tags: sidecar?.tags ?? {},
      };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  private async readSidecar(key: string): Promise<Sidecar | null> {
    try {
      return JSON.parse(await readFile(this.sidecarPath(key), 'utf8')) as Sidecar;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.filePath(key);
    try {
      const info = await stat(file);
      if (!info.isFile()) throw new ObjectNotFoundError(key);
    } catch (error) {
      if (isMissing(error)) throw new ObjectNotFoundError(key);
      throw storageError(error);
    }
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async delete(key: string): Promise<void> {
    if (!isValidKey(key)) return;
    try {
      await rm(this.filePath(key), { force: true });
      await rm(this.sidecarPath(key), { force: true });
    } catch (error) {
      throw storageError(error);
    }
  }

  async ping(): Promise<boolean> {
    try {
      await mkdir(this.root, { recursive: true });
      await access(this.root, constants.R_OK | constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
