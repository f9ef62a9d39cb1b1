import { CANVAS_IMAGE_MAX_CHARS } from '../../../common/api/canvas-images.ts';
import { MULTI_REFERENCE } from '../../../common/api/multi-reference.constants.ts';
import { MULTI_REFERENCE_MAX_CHARS } from '../../../common/api/multi-reference.ts';
import { EDITOR_SESSION_LIMITS } from '../../../common/rules/editor-sessions.ts';

const KB = 1024;
const MB = 1024 * KB;
/** Room for a body's other fields beside its inline images. */
const FIELDS = MB;

/**
 * Request body limits in bytes (issue 17). A JSON body is parsed on the event loop, so a 12 MB body (or
 * a million keys) stalls every other request for about a second. Every route takes `default`; only
 * routes that carry media inline (base64 or `data:` URIs) raise it, as far as their schema allows
 * (Fastify's route option `bodyLimit`). Over the limit: 413 'The request is too large (at most …)'.
 * Multipart uploads are not parsed as a body: they stream to disk under their own per-file limits.
 */
export const BODY_LIMITS = {
  default: MB,
  /**
   * Generation calls whose reference images may be `data:` URIs (image, video, persona, character and
   * sequence generation): the limit every route had before issue 17.
   */
  inlineMedia: 12 * MB,
  /** Editor sessions: up to EDITOR_SESSION_LIMITS.maxBytes of canvas state and a data-URL thumbnail (2 MB). */
  editorSession: EDITOR_SESSION_LIMITS.maxBytes + 2 * MB + FIELDS,
  /** The canvas image calls, by how many base64 images (CANVAS_IMAGE_MAX_CHARS each) the call takes. */
  canvasImages: (images: number) => images * CANVAS_IMAGE_MAX_CHARS + FIELDS,
  /** The Magic Selector: base image, mask and an optional reference. */
  inpaint: 3 * CANVAS_IMAGE_MAX_CHARS + FIELDS,
  multiReference: MULTI_REFERENCE.maxFiles * MULTI_REFERENCE_MAX_CHARS + FIELDS,
  /** base64-to-url, temp-upload and enhancement sources: one file of `largestFileBytes` in base64. */
  base64File: (largestFileBytes: number) => Math.ceil((largestFileBytes * 4) / 3) + 64 * KB,
} as const;

/** "1 MB", "12 MB", "64 KB": a limit as the 413 message shows it. */
export function formatBodyLimit(bytes: number): string {
  return bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / KB)} KB`;
}
