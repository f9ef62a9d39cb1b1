import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ObjectStorage } from '../storage/types.ts';
import { makeWorkDir } from './work-dir.ts';

/**
 * Runs `fn` with a local file holding the object: the stored file itself on local disk, or a
 * temporary download (removed afterwards) on S3. Tools like ffprobe need a path.
 */
export async function withLocalFile<T>(
  storage: ObjectStorage,
  key: string,
  fn: (file: string) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const direct = storage.localPath(key);
  if (direct) return fn(direct);
  const dir = await makeWorkDir('media');
  try {
    const file = path.join(dir, path.basename(key));
    await pipeline(await storage.read(key), createWriteStream(file), { signal });
    return await fn(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
