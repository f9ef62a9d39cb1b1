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
import { apiRequest } from '../../../api/client.ts';

export { getTask } from '../../../api/assets.ts';

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

/** Fetches a canvas image (with the session cookie) and returns its bytes as base64 and its MIME type. */
export async function imageAsBase64(url: string, signal?: AbortSignal): Promise<{ base64: string; mimeType: string }> {
  const dataUri = await imageAsDataUri(url, signal);
  const comma = dataUri.indexOf(',');
  const mimeType = dataUri.slice(5, dataUri.indexOf(';')) || 'image/png';
  return { base64: dataUri.slice(comma + 1), mimeType };
}

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
