import { z } from 'zod';

/**
 * POST /api/upload/base64-to-url: a file sent as base64 (a `data:` URI or bare base64). Stored as
 * a temporary object (one day) when `forRunway` is set, else as a permanent upload.
 */
export const base64ToUrlBody = z.object({
  base64Data: z.string().min(1),
  forRunway: z.boolean().optional(),
});
export type Base64ToUrlBody = z.infer<typeof base64ToUrlBody>;

/**
 * POST /api/temp-upload: `videoData` is a `data:` URL or a public http(s) URL the server fetches.
 * Any image, video or audio type of REMOTE_UPLOAD_MIME_TYPES is accepted (the name is historical);
 * the type is taken from the bytes, `contentType` is only checked as a declaration.
 */
export const tempUploadBody = z.object({
  videoData: z.string().min(1),
  filename: z.string().max(255).optional(),
  contentType: z.string().max(255).optional(),
});
export type TempUploadBody = z.infer<typeof tempUploadBody>;

/** Both calls answer `{ success, url }` (spec), plus what the server learnt about the file. */
export const remoteUploadReply = z.object({
  success: z.literal(true),
  /** The media route serving the stored file (`/api/images/…`, `/api/videos/…`, `/api/audio/…`). */
  url: z.string(),
  /** The same path signed for one hour, usable without a session (e.g. by an outside engine). */
  signed_url: z.string(),
  mime_type: z.string(),
  size: z.number().int(),
  /** When the stored file is removed; null for a permanent upload. */
  expires_at: z.string().nullable(),
});
export type RemoteUploadReply = z.infer<typeof remoteUploadReply>;
