import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import { UPLOAD_STORAGE_CEILINGS_MB } from '../../../common/api/generation.constants.ts';
import { UPLOAD_SNIFFED_TYPES } from '../../../common/api/media.constants.ts';
import type { Config } from '../../config.ts';

export type UploadKind = 'image' | 'video' | 'audio';

/** What the bytes are, whatever the name or the client's MIME type say. */
export interface Sniffed {
  /** file-type's extension: png, jpg, mp4, mov, mp3, m4a, … */
  ext: string;
  /** Browser-friendly MIME type (aliases applied). */
  mime: string;
  /** image, video or audio when the format is one the studio accepts; null otherwise. */
  kind: UploadKind | null;
}

/** Browser-friendly names for the MIME types file-type reports. */
const MIME_ALIASES: Record<string, string> = {
  'video/vnd.avi': 'video/x-msvideo',
  'audio/x-m4a': 'audio/mp4',
  'audio/vnd.wave': 'audio/wav',
  'audio/x-wav': 'audio/wav',
};

function toSniffed(result: { ext: string; mime: string } | undefined): Sniffed | null {
  if (!result) return null;
  return {
    ext: result.ext,
    mime: MIME_ALIASES[result.mime] ?? result.mime,
    kind: UPLOAD_SNIFFED_TYPES[result.ext] ?? null,
  };
}

export async function sniffFile(file: string): Promise<Sniffed | null> {
  return toSniffed(await fileTypeFromFile(file));
}

export async function sniffBuffer(data: Uint8Array): Promise<Sniffed | null> {
  return toSniffed(await fileTypeFromBuffer(data));
}

/** Bytes file-type needs to recognise the formats the studio accepts (ID3-tagged MP3 may need the file). */
export const SNIFF_HEAD_BYTES = 4100;

/**
 * The size limit in MB of one file of this kind: the configured UPLOAD_MAX_MB (default 50), but
 * never above the storage ceiling of the kind (image 75, video 750, anything else 100).
 */
export function uploadLimitMb(config: Pick<Config, 'UPLOAD_MAX_MB'>, kind: UploadKind | null): number {
  const ceiling =
    kind === 'image'
      ? UPLOAD_STORAGE_CEILINGS_MB.image
      : kind === 'video'
        ? UPLOAD_STORAGE_CEILINGS_MB.video
        : UPLOAD_STORAGE_CEILINGS_MB.other;
  return Math.min(config.UPLOAD_MAX_MB, ceiling);
}

/** The most any one file may be before its kind is known: the largest of the per-kind limits. */
export function largestUploadLimitMb(config: Pick<Config, 'UPLOAD_MAX_MB'>): number {
  return Math.max(uploadLimitMb(config, 'image'), uploadLimitMb(config, 'video'), uploadLimitMb(config, 'audio'));
}

export const MB = 1024 * 1024;
