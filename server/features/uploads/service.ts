import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Multipart } from '@fastify/multipart';
import { and, eq, inArray } from 'drizzle-orm';
import { UPLOAD } from '../../../common/api/media.constants.ts';
import type { UploadedFile, UploadStatus } from '../../../common/api/uploads.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { TOOL_UPLOAD_PURPOSES } from '../../../common/rules/upload-limits.ts';
import type { AppContext } from '../../context.ts';
import { uploadedMedia } from '../../db/schema/index.ts';
import { AppError, badRequest, notFound, tooLarge } from '../../platform/errors.ts';
import { assertCleanMedia } from '../../platform/media/integrity.ts';
import { assertStorageRoom, storageLimitBytes } from '../../platform/media/quota.ts';
import { MediaStore, mediaUrl } from '../../platform/media/store.ts';
import { MEDIA_EXTRACT_KIND } from './extract-task.ts';
import {
  largestUploadLimitMb,
  MB,
  SNIFF_HEAD_BYTES,
  type Sniffed,
  sniffBuffer,
  sniffFile,
  type UploadKind,
  uploadLimitMb,
} from './sniff.ts';

type UploadRow = typeof uploadedMedia.$inferSelect;

/** One multipart file saved to a temporary file, not yet checked. */
interface ReceivedFile {
  file: string;
  size: number;
  filename: string;
}

/** The files of one multipart upload (in the order sent) and its purpose. */
export interface ReceivedUploads {
  files: ReceivedFile[];
  purpose: string;
  cleanup(): Promise<void>;
}

/** Multipart field names that carry files: `file` (spec), repeated for several, or `files`. */
const FILE_FIELDS = new Set(['file', 'files', 'file[]', 'files[]']);
const PURPOSE = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function errorCode(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/** Keeps a display name: no path, no control characters, at most 255 characters. */
function cleanFilename(name: string | undefined, fallbackExt: string): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = [...base]
    .filter((ch) => {
      const code = ch.codePointAt(0) ?? 0;
      return code >= 0x20 && code !== 0x7f;
    })
    .join('')
    .trim()
    .slice(0, 255);
  return cleaned || `upload.${fallbackExt}`;
}

/**
 * What `request.parts()` should be limited to: the largest limit of any purpose (a tool upload's video) and
 * UPLOAD.maxFiles; each file is then held to its own purpose's and kind's limit as it arrives (saveCapped).
 */
export function multipartLimits(ctx: AppContext): { fileSize: number; files: number } {
  return { fileSize: largestUploadLimitMb(ctx.config, TOOL_UPLOAD_PURPOSES[0]) * MB, files: UPLOAD.maxFiles };
}

/**
 * Copies one file part to `target`, stopping at the limit of its kind: the first bytes are sniffed
 * as they arrive, so an 80 MB image is refused at 75 MB (or UPLOAD_MAX_MB) without storing the rest.
 */
async function saveCapped(ctx: AppContext, source: Readable, target: string, purpose: string): Promise<number> {
  let size = 0;
  let head: Buffer | null = Buffer.alloc(0);
  let limitMb = largestUploadLimitMb(ctx.config, purpose);
  await pipeline(
    source,
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        size += chunk.length;
        if (head) {
          head = Buffer.concat([head, chunk]);
          if (head.length >= SNIFF_HEAD_BYTES) {
            limitMb = uploadLimitMb(ctx.config, (await sniffBuffer(head))?.kind ?? null, purpose);
            head = null;
          }
        }
        if (size > limitMb * MB) throw tooLarge(MESSAGES.upload.tooLarge(limitMb));
        yield chunk;
      }
    },
    createWriteStream(target),
  );
  return size;
}

/**
 * Reads the multipart body: each file part (`file`, repeated for several; at most UPLOAD.maxFiles)
 * is streamed to a temporary file and stopped at its size limit (413 'File size exceeds {n}MB
 * limit'); the `type` field is the upload's purpose. Other parts are drained.
 */
export async function receiveUploads(ctx: AppContext, parts: AsyncIterable<Multipart>): Promise<ReceivedUploads> {
  const tmpRoot = path.join(ctx.config.dataDir, 'tmp');
  await mkdir(tmpRoot, { recursive: true });
  const dir = await mkdtemp(path.join(tmpRoot, 'upload-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  const files: ReceivedFile[] = [];
  // The `type` field comes before the files (the web client sends it first): files follow its limits.
  let purpose = 'ai-asset';
  const streamLimit = () => tooLarge(MESSAGES.upload.tooLarge(largestUploadLimitMb(ctx.config, purpose)));
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        if (!FILE_FIELDS.has(part.fieldname)) {
          part.file.resume();
          continue;
        }
        if (files.length >= UPLOAD.maxFiles) throw badRequest(MESSAGES.upload.tooManyFiles(UPLOAD.maxFiles));
        const file = path.join(dir, `part-${files.length}`);
        let size: number;
        try {
          size = await saveCapped(ctx, part.file, file, purpose);
        } catch (error) {
          if (errorCode(error) === 'FST_REQ_FILE_TOO_LARGE') throw streamLimit();
          throw error;
        }
        if (part.file.truncated) throw streamLimit();
        files.push({ file, size, filename: part.filename });
      } else if (part.fieldname === 'type' && typeof part.value === 'string' && part.value.trim()) {
        const value = part.value.trim();
        if (!PURPOSE.test(value)) throw badRequest('Invalid upload type');
        purpose = value;
      }
    }
    const nonEmpty = files.filter((f) => f.size > 0);
    if (nonEmpty.length === 0) throw badRequest(MESSAGES.upload.noFile);
    return { files: nonEmpty, purpose, cleanup };
  } catch (error) {
    await cleanup();
    const code = errorCode(error);
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw streamLimit();
    if (code === 'FST_FILES_LIMIT') throw badRequest(MESSAGES.upload.tooManyFiles(UPLOAD.maxFiles));
    throw error;
  }
}

interface CheckedFile extends ReceivedFile {
  sniffed: Sniffed & { kind: UploadKind };
}

/**
 * The bytes (never the name or the client's MIME type) must be an accepted format within its limit.
 * `size` becomes what is stored: a phone's trailer after a JPEG is left out.
 */
async function checkFile(ctx: AppContext, file: ReceivedFile, purpose: string): Promise<CheckedFile> {
  const sniffed = await sniffFile(file.file);
  if (!sniffed?.kind) {
    throw new AppError(400, 'unsupported_type', MESSAGES.upload.unsupportedType, { filename: file.filename });
  }
  const limitMb = uploadLimitMb(ctx.config, sniffed.kind, purpose);
  if (file.size > limitMb * MB) throw tooLarge(MESSAGES.upload.tooLarge(limitMb));
  const size = await assertCleanMedia(file.file, sniffed);
  return { ...file, size, sniffed: { ...sniffed, kind: sniffed.kind } };
}

/**
 * Checks every file first (one bad file, or files that together pass the storage quota, refuse the
 * whole request and store nothing), then stores each, records it and starts its thumbnail/metadata
 * task. Answers in the order sent.
 */
export async function storeUploads(
  ctx: AppContext,
  userId: string,
  received: ReceivedUploads,
): Promise<UploadedFile[]> {
  const checked: CheckedFile[] = [];
  for (const file of received.files) checked.push(await checkFile(ctx, file, received.purpose));
  await assertStorageRoom(
    ctx,
    userId,
    checked.reduce((total, file) => total + file.size, 0),
  );
  const stored: UploadedFile[] = [];
  for (const file of checked) stored.push(await storeOne(ctx, userId, file, received.purpose));
  return stored;
}

async function storeOne(ctx: AppContext, userId: string, upload: CheckedFile, purpose: string): Promise<UploadedFile> {
  const { ext, mime: mimeType, kind: type } = upload.sniffed;
  const filename = cleanFilename(upload.filename, ext);

  const stored = await new MediaStore(ctx).put({
    body: createReadStream(upload.file, { end: upload.size - 1 }),
    contentLength: upload.size,
    contentType: mimeType,
    ext,
    storageClass: 'upload',
    userId,
    source: 'upload',
    quotaBytes: storageLimitBytes(ctx.config),
  });

  const id = randomUUID();
  const taskId = randomUUID();
  const now = ctx.clock.now();
  await ctx.db.insert(uploadedMedia).values({
    id,
    userId,
    filename,
    key: stored.key,
    type,
    mimeType,
    size: stored.size,
    purpose,
    status: 'processing',
    taskId,
    createdAt: now,
    updatedAt: now,
  });
  try {
    await ctx.jobs.createTask({
      id: taskId,
      userId,
      kind: MEDIA_EXTRACT_KIND,
      input: { uploadId: id },
      estimatedSeconds: type === 'image' ? 1 : 3,
      description: 'Media thumbnail and metadata',
    });
  } catch (error) {
    await ctx.db.update(uploadedMedia).set({ status: 'failed', updatedAt: now }).where(eq(uploadedMedia.id, id));
    throw error;
  }
  return {
    id,
    filename,
    url: stored.url,
    size: stored.size,
    type,
    mime_type: mimeType,
    thumbnail_url: null,
    taskId,
  };
}

function toUploadStatus(row: UploadRow): UploadStatus {
  return {
    id: row.id,
    filename: row.filename,
    url: mediaUrl(row.key, row.mimeType),
    size: row.size,
    type: row.type,
    mime_type: row.mimeType,
    thumbnail_url: row.thumbnailKey ? mediaUrl(row.thumbnailKey, 'image/webp') : null,
    taskId: row.taskId,
    purpose: row.purpose,
    status: row.status,
    width: row.width,
    height: row.height,
    duration_ms: row.durationMs,
    metadata: row.metadata,
    created_at: row.createdAt.toISOString(),
  };
}

/** The user's upload; 404 for an unknown id or another user's upload. */
export async function getUpload(ctx: AppContext, userId: string, id: string): Promise<UploadStatus> {
  if (!UUID.test(id)) throw notFound();
  const [row] = await ctx.db
    .select()
    .from(uploadedMedia)
    .where(and(eq(uploadedMedia.id, id), eq(uploadedMedia.userId, userId)))
    .limit(1);
  if (!row) throw notFound();
  return toUploadStatus(row);
}

/** The WebP thumbnail keys of uploaded files by their storage key (uploads without one yet are left out). */
export async function uploadThumbnailKeysOf(
  ctx: Pick<AppContext, 'db'>,
  keys: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const unique = [...new Set(keys)];
  if (unique.length === 0) return out;
  const rows = await ctx.db
    .select({ key: uploadedMedia.key, thumbnailKey: uploadedMedia.thumbnailKey })
    .from(uploadedMedia)
    .where(inArray(uploadedMedia.key, unique));
  for (const row of rows) if (row.thumbnailKey) out.set(row.key, row.thumbnailKey);
  return out;
}
