import { z } from 'zod';
import { ok } from './envelope.ts';

const uploadMediaType = z.enum(['image', 'video', 'audio']);

/** POST /api/upload (multipart: `file`, `type` e.g. 'ai-asset'). */
const uploadedFile = z.object({
  id: z.string(),
  filename: z.string(),
  /** `/api/images/<key>`, `/api/videos/<key>` or `/api/audio/<key>`. */
  url: z.string(),
  size: z.number().int(),
  /** Derived from the file's sniffed MIME type. */
  type: uploadMediaType,
  mime_type: z.string(),
  /** Null until the extraction task has made the WebP thumbnail (audio has none). */
  thumbnail_url: z.string().nullable(),
  /** The `media.extract` task; poll GET /api/tasks/{taskId}. */
  taskId: z.string(),
});
export type UploadedFile = z.infer<typeof uploadedFile>;
/** One file: `data` is the file, as the spec reads it. */
const uploadReply = ok(uploadedFile);
export type UploadReply = z.infer<typeof uploadReply>;
/** Several files (`file` repeated, at most UPLOAD.maxFiles): `data` lists them in the order sent. */
const multiUploadReply = ok(z.array(uploadedFile));
export type MultiUploadReply = z.infer<typeof multiUploadReply>;
/** What POST /api/upload answers: one object for one file, an array for several. */
export const anyUploadReply = z.union([uploadReply, multiUploadReply]);

/** GET /api/upload/{id}. */
export const uploadParams = z.object({ id: z.string().max(64) });
const uploadStatus = uploadedFile.extend({
  purpose: z.string(),
  status: z.enum(['processing', 'ready', 'failed']),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  taskId: z.string().nullable(),
  created_at: z.string(),
});
export const uploadStatusReply = ok(uploadStatus);
export type UploadStatus = z.infer<typeof uploadStatus>;

/** GET /api/account/storage: the bytes the user stores (uploads and generated media) and the quota. */
const storageUsage = z.object({ usedBytes: z.number().int().min(0), limitBytes: z.number().int().min(0) });
export const storageUsageReply = ok(storageUsage);
export type StorageUsage = z.infer<typeof storageUsage>;
export type StorageUsageReply = z.infer<typeof storageUsageReply>;
