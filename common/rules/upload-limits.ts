// Which specification's upload limits govern an upload, decided by its purpose (the multipart `type` field).
// Pure: shared by the server's check and the web's check before sending.

import { UPLOAD_STORAGE_CEILINGS_MB } from '../api/generation.constants.ts';

export type UploadKind = 'image' | 'video' | 'audio';

/**
 * Uploads made by the canvas and its tools. The canvas-and-tools spec sets their limits (image 75 MB, video
 * 750 MB, other 100 MB) and they need them: a video-to-video reference may be 100 MB, a 4K canvas image 60 MB.
 * Every other upload (the studio's media, avatars, persona looks: the marketplace spec) keeps UPLOAD_MAX_MB.
 */
export const TOOL_UPLOAD_PURPOSES = [
  'canvas',
  'multi-reference',
  'multi-composition',
  'magic-selector',
  'characters',
  'enhancement',
] as const;

export type ToolUploadPurpose = (typeof TOOL_UPLOAD_PURPOSES)[number];

export function isToolUpload(purpose: string): purpose is ToolUploadPurpose {
  return (TOOL_UPLOAD_PURPOSES as readonly string[]).includes(purpose);
}

/**
 * The largest accepted file, in MB, for an upload of this purpose and kind (null: bytes of no known media kind,
 * held to the 'other' limit). Tool uploads: the canvas spec's ceiling of the kind. Others: UPLOAD_MAX_MB (default
 * 50), never above that ceiling.
 */
export function uploadLimitMb(purpose: string, kind: UploadKind | null, generalMaxMb: number): number {
  const ceiling =
    kind === 'image'
      ? UPLOAD_STORAGE_CEILINGS_MB.image
      : kind === 'video'
        ? UPLOAD_STORAGE_CEILINGS_MB.video
        : UPLOAD_STORAGE_CEILINGS_MB.other;
  return isToolUpload(purpose) ? ceiling : Math.min(generalMaxMb, ceiling);
}

/** The most a file of this purpose may be before its kind is known: the largest of the per-kind limits. */
export function largestUploadLimitMb(purpose: string, generalMaxMb: number): number {
  return Math.max(...(['image', 'video', 'audio'] as const).map((kind) => uploadLimitMb(purpose, kind, generalMaxMb)));
}
