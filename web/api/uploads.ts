// POST /api/upload (multipart `file` + `type`), one file per request so progress and errors are per file,
// at most three at a time (UPLOAD_CONCURRENCY). Sizes are checked here first to save a wasted upload.

import { UPLOAD } from '../../common/api/media.constants.ts';
import type { UploadedFile, UploadReply } from '../../common/api/uploads.ts';
import { uploadLimitMb } from '../../common/rules/upload-limits.ts';
import { getToken } from './session.ts';
import { mapWithConcurrency, uploadFailureMessage, uploadKindOf, uploadSizeError } from './upload-rules.ts';

export type { UploadedFile };

/**
 * A failed upload: `message` is the spec's text ('Upload failed' / 'Upload failed (413)' / the size limit), or the
 * server's own when storage is unavailable (503: 'Media storage is unavailable right now…').
 */
export class UploadError extends Error {
  readonly status: number;
  /** The server's own explanation, when it sent one. */
  readonly detail: string | undefined;

  constructor(message: string, status: number, detail?: string) {
    super(message);
    this.name = 'UploadError';
    this.status = status;
    this.detail = detail;
  }
}

interface UploadOptions {
  /**
   * Upload purpose (`type` field); the studio sends 'ai-asset'. The canvas and its tools send theirs
   * (TOOL_UPLOAD_PURPOSES), which take the canvas spec's limits instead of the studio's 50 MB.
   */
  purpose?: string;
  /** A tool's own tighter limit (Multi-Reference: 10 MB images); default: the purpose's limit for the file's kind. */
  maxMb?: number;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}

function serverError(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: unknown };
    return typeof body.error === 'string' ? body.error : undefined;
  } catch {
    return undefined;
  }
}

/** Uploads one file and resolves with the stored file (id, filename, url, size, type). */
function uploadFile(file: File, options: UploadOptions = {}): Promise<UploadedFile> {
  const { purpose = 'ai-asset', signal, onProgress } = options;
  const maxMb = options.maxMb ?? uploadLimitMb(purpose, uploadKindOf(file), UPLOAD.defaultMaxMb);
  const tooLarge = uploadSizeError(file.size, maxMb);
  if (tooLarge) return Promise.reject(new UploadError(tooLarge, 413));

  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/upload');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && onProgress) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const detail = serverError(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          const reply = JSON.parse(xhr.responseText) as UploadReply | { success: true; data: UploadedFile[] };
          const data = Array.isArray(reply.data) ? reply.data[0] : reply.data;
          if (reply.success && data?.url) {
            onProgress?.(1);
            resolve(data);
            return;
          }
        } catch {
          // fall through to the failure below
        }
        reject(new UploadError(uploadFailureMessage(0), xhr.status, detail));
        return;
      }
      // A storage outage (503) says what to do, try again in a moment, which 'Upload failed (503)' does not.
      const message = xhr.status === 503 && detail ? detail : uploadFailureMessage(xhr.status);
      reject(new UploadError(message, xhr.status, detail));
    };
    xhr.onerror = () => reject(new UploadError(uploadFailureMessage(0), 0));
    xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });

    const form = new FormData();
    form.append('type', purpose);
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

/** Uploads several files, three at a time; results are settled per file, in the order given. */
export function uploadFiles(
  files: readonly File[],
  options: Omit<UploadOptions, 'onProgress'> & { onProgress?: (index: number, fraction: number) => void } = {},
) {
  const { onProgress, ...rest } = options;
  return mapWithConcurrency(files, (file, index) =>
    uploadFile(file, { ...rest, onProgress: onProgress ? (fraction) => onProgress(index, fraction) : undefined }),
  );
}
