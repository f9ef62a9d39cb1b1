import type { InpaintReply } from '../../../common/api/inpaint.ts';
import { apiRequest } from '../../api/client.ts';

export interface InpaintRequest {
  baseImage: string;
  maskImage: string;
  mode: string;
  quality: string;
  prompt: string;
  referenceImage?: string;
  styleStrength: number;
}

/** POST /api/ai/generate/inpaint (canvas spec 7). */
export function inpaint(body: InpaintRequest, signal?: AbortSignal): Promise<InpaintReply> {
  return apiRequest<InpaintReply>('/api/ai/generate/inpaint', { method: 'POST', body, signal });
}

/** A file as a data URI. */
export function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}
