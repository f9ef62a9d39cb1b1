import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Multipart } from '@fastify/multipart';
import { and, eq } from 'drizzle-orm';
import { fileTypeFromFile } from 'file-type';
import type { UploadedFile, UploadStatus } from '../../../common/api/uploads.ts';
import { UPLOAD_SNIFFED_TYPES } from '../../../common/constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { uploadedMedia } from '../../db/schema/index.ts';
import { AppError, badRequest, notFound, tooLarge } from '../../platform/errors.ts';
import { MediaStore, mediaUrl } from '../../platform/media/store.ts';
import { MEDIA_EXTRACT_KIND } from './extract-task.ts';

type UploadRow = typeof uploadedMedia.$inferSelect;

/** A multipart upload saved to a temporary file, not yet checked. */
export interface ReceivedUpload {
  file: string;
  size: number;
  filename: string;
  purpose: string;
  cleanup(): Promise<void>;
}

/** Browser-friendly names for the MIME types file-type reports. */
const MIME_ALIASES: Record<string, string> = {
  'video/vnd.avi': 'video/x-msvideo',
  'audio/x-m4a': 'audio/mp4',
  'audio/vnd.wave': 'audio/wav',
  'audio/x-wav': 'audio/wav',
};

const PURPOSE = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isFileTooLarge(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'FST_REQ_FILE_TOO_LARGE';
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
 * Reads the multipart body: the `file` part is streamed to a temporary file (the multipart limit
 * stops it at UPLOAD_MAX_MB: 413), the `type` field is the upload's purpose. Other parts are drained.
 */
export async function receiveUpload(ctx: AppContext, parts: AsyncIterable<Multipart>): Promise<ReceivedUpload> {
  const tmpRoot = path.join(ctx.config.dataDir, 'tmp');
  await mkdir(tmpRoot, { recursive: true });
  const dir = await mkdtemp(path.join(tmpRoot, 'upload-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  const tooBig = () => tooLarge(MESSAGES.upload.tooLarge(ctx.config.UPLOAD_MAX_MB));
  let saved: { file: string; filename: string } | null = null;
  let purpose = 'ai-asset';
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || saved) {
          part.file.resume();
          continue;
        }
        const file = path.join(dir, 'body');
        try {
          await pipeline(part.file, createWriteStream(file));
        } catch (error) {
          if (isFileTooLarge(error)) throw tooBig();
          throw error;
        }
        if (part.file.truncated) throw tooBig();
        saved = { file, filename: part.filename };
      } else if (part.fieldname === 'type' && typeof part.value === 'string' && part.value.trim()) {
        const value = part.value.trim();
        if (!PURPOSE.test(value)) throw badRequest('Invalid upload type');
        purpose = value;
      }
    }
    if (!saved) throw badRequest(MESSAGES.upload.noFile);
    const { size } = await stat(saved.file);
    if (size === 0) throw badRequest(MESSAGES.upload.noFile);
    return { file: saved.file, size, filename: saved.filename, purpose, cleanup };
  } catch (error) {
    await cleanup();
    if (isFileTooLarge(error)) throw tooBig();
    throw error;
  }
}

/**
 * Checks the bytes (never the name or the client's MIME type) against the allowed image, video and
 * audio formats, stores the file, records it and starts the thumbnail/metadata task.
 */
export async function storeUpload(ctx: AppContext, userId: string, upload: ReceivedUpload): Promise<UploadedFile> {
  const sniffed = await fileTypeFromFile(upload.file);
  const type = sniffed ? UPLOAD_SNIFFED_TYPES[sniffed.ext] : undefined;
  if (!sniffed || !type) throw new AppError(400, 'unsupported_type', MESSAGES.upload.unsupportedType);
  const mimeType = MIME_ALIASES[sniffed.mime] ?? sniffed.mime;
  const filename = cleanFilename(upload.filename, sniffed.ext);

  const stored = await new MediaStore(ctx).put({
    body: createReadStream(upload.file),
    contentLength: upload.size,
    contentType: mimeType,
    ext: sniffed.ext,
    storageClass: 'upload',
    userId,
    source: 'upload',
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
    purpose: upload.purpose,
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
