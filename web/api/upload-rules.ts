// Pure client-side upload rules (spec 5 "Uploads", spec 8 "Upload", canvas spec 9 concurrency).
// No Node and no DOM imports: shared by web and tests.

import { UPLOAD_CONCURRENCY } from '../../common/api/generation.constants.ts';
import { UPLOAD } from '../../common/api/media.constants.ts';
import { MESSAGES } from '../../common/messages.ts';

import type { UploadKind } from '../../common/rules/upload-limits.ts';

export type { UploadKind };

const EXTENSION_KIND: Record<string, UploadKind> = {
  ...Object.fromEntries(UPLOAD.imageTypes.map((ext) => [ext, 'image' as const])),
  ...Object.fromEntries(UPLOAD.videoTypes.map((ext) => [ext, 'video' as const])),
  ...Object.fromEntries(UPLOAD.audioTypes.map((ext) => [ext, 'audio' as const])),
};

/** The kind of a file from its MIME type (spec: "Upload type is derived from the MIME type"), else its extension. */
export function uploadKindOf(file: { type?: string; name?: string }): UploadKind | null {
  const mime = (file.type ?? '').toLowerCase();
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  const ext = (file.name ?? '').toLowerCase().split('.').pop() ?? '';
  return EXTENSION_KIND[ext] ?? null;
}

/** The `accept` attribute for a file input taking the given kinds. */
export function acceptFor(kinds: readonly UploadKind[]): string {
  const lists: Record<UploadKind, readonly string[]> = {
    image: UPLOAD.imageTypes,
    video: UPLOAD.videoTypes,
    audio: UPLOAD.audioTypes,
  };
  return kinds.flatMap((kind) => [`${kind}/*`, ...lists[kind].map((ext) => `.${ext}`)]).join(',');
}

/** 'File size exceeds {n}MB limit' when the file is larger than the limit, else null. */
export function uploadSizeError(sizeBytes: number, maxMb: number = UPLOAD.defaultMaxMb): string | null {
  return sizeBytes > maxMb * 1024 * 1024 ? MESSAGES.upload.tooLarge(maxMb) : null;
}

/** The message for a failed upload call: 'Upload failed (status)' when the server answered, else 'Upload failed'. */
export function uploadFailureMessage(status: number): string {
  return status > 0 ? MESSAGES.upload.failedStatus(status) : MESSAGES.upload.failed;
}

/** At most UPLOAD.maxFiles files from one pick; the rest are dropped and counted. */
export function limitUploadBatch<T>(
  files: readonly T[],
  max: number = UPLOAD.maxFiles,
): { kept: T[]; dropped: number } {
  return { kept: files.slice(0, max), dropped: Math.max(0, files.length - max) };
}

/**
 * Runs `worker` over `items` with at most `limit` running at once (three uploads at a time), keeping the
 * results in input order. A failing item rejects only its own slot (results are settled).
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  worker: (item: T, index: number) => Promise<R>,
  limit: number = UPLOAD_CONCURRENCY,
): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        results[index] = { status: 'fulfilled', value: await worker(items[index], index) };
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, run));
  return results;
}
