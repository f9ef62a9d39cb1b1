// Calls of the canvas dialogs (canvas spec 7): quick edit, multi-composition, region composition,
// image and video enhancement and the task poll. Thin wrappers over apiRequest (bearer token, ApiError).
import type { z } from 'zod';
import type {
  editImageBody,
  multiCompositionBody,
  multiCompositionReply,
  multiImageCompositionBody,
  nanobanaReply,
} from '../../../../common/api/canvas-images.ts';
import type { EnhanceQueuedReply, TopazEnhanceBody, TopazModelsReply } from '../../../../common/api/upscale.ts';
import { ApiError, apiRequest } from '../../../api/client.ts';
import { localizeMessage } from '../../../i18n/localize.ts';

type NanobanaReply = z.infer<typeof nanobanaReply>;

export function editImage(body: z.input<typeof editImageBody>, signal?: AbortSignal) {
  return apiRequest<NanobanaReply>('/api/nanobana/edit-image', { method: 'POST', body, signal });
}

export function composeImages(body: z.input<typeof multiImageCompositionBody>, signal?: AbortSignal) {
  return apiRequest<NanobanaReply>('/api/nanobana/multi-image-composition', { method: 'POST', body, signal });
}

type CompositionStep = z.input<typeof multiCompositionBody>['compositionSteps'][number];

export function generateMultiComposition(
  body: { baseImage: string; compositionSteps: CompositionStep[] },
  signal?: AbortSignal,
) {
  return apiRequest<z.infer<typeof multiCompositionReply>>('/api/ai/generate/multi-composition', {
    method: 'POST',
    body: { ...body, mode: 'reference-chain', maxSteps: 10, consistencyStrength: 0.8, preserveOriginal: true },
    signal,
  });
}

export function queueEnhancor(path: string, body: unknown) {
  return apiRequest<EnhanceQueuedReply>(path, { method: 'POST', body });
}

export function topazModels(signal?: AbortSignal) {
  return apiRequest<TopazModelsReply>('/api/topaz/models', { signal });
}

export function topazEnhance(body: TopazEnhanceBody) {
  return apiRequest<EnhanceQueuedReply>('/api/topaz/enhance', { method: 'POST', body });
}

/**
 * How a canvas image is handed to the image calls: by its URL (one of the user's own media URLs, a data URI or
 * a public URL), never by its bytes. The server reads the stored object itself, so even a 4K PNG over the
 * 10 MB inline limit can be edited.
 */
export function imageRef(image: { url: string }): string {
  return image.url;
}

/** A task that ended as failed; its message is the server's (a spec message where there is one). */
export class TaskFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TaskFailedError';
  }
}

/**
 * What to tell the user when a canvas call fails: the server's message (shown through the spec's catalogue,
 * so it is translated) or, for anything else (a network or decoding error), the spec's fallback.
 */
export function failureText(error: unknown, fallback: string): string {
  const fromServer = (error instanceof ApiError || error instanceof TaskFailedError) && error.message;
  return localizeMessage(fromServer || fallback);
}

/** Fetches an image (with the session cookie) as a data URI. */
export async function imageAsDataUri(url: string, signal?: AbortSignal): Promise<string> {
  if (url.startsWith('data:')) return url;
  const response = await fetch(url, { credentials: 'include', signal });
  if (!response.ok) throw new Error(`Image fetch failed: ${response.status}`);
  return blobAsDataUri(await response.blob());
}

export function blobAsDataUri(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Read failed'));
    reader.readAsDataURL(blob);
  });
}
