import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import { UPLOAD_SNIFFED_TYPES } from '../../../common/api/media.constants.ts';
import {
  largestUploadLimitMb as largestFor,
  uploadLimitMb as limitFor,
  type UploadKind,
} from '../../../common/rules/upload-limits.ts';
import type { Config } from '../../config.ts';

export type { UploadKind };

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

/** The limit of a file of this kind for an upload of this purpose (common/rules/upload-limits.ts). */
export function uploadLimitMb(config: Pick<Config, 'UPLOAD_MAX_MB'>, kind: UploadKind | null, purpose = ''): number {
  return limitFor(purpose, kind, config.UPLOAD_MAX_MB);
}

/** The most any one file of this purpose may be before its kind is known: the largest of the per-kind limits. */
export function largestUploadLimitMb(config: Pick<Config, 'UPLOAD_MAX_MB'>, purpose = ''): number {
  return largestFor(purpose, config.UPLOAD_MAX_MB);
}

export const MB = 1024 * 1024;
