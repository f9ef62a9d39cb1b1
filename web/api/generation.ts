// Calls of the Creation Studio's generation (spec 7, "Generation and assets"). Types come from common/api.
import type { z } from 'zod';
import type {
  GenerateAudioBody,
  GenerateImageBody,
  GenerateVideoBody,
  generateAudioReply,
  generateImageReply,
  generateVideoReply,
  generationStatusReply,
  TaskAccepted,
} from '../../common/api/generation.ts';
import { apiRequest } from './client.ts';

export type { TaskAccepted };
export type GenerateImageReply = z.infer<typeof generateImageReply>;
export type GenerateVideoReply = z.infer<typeof generateVideoReply>;
export type GenerateAudioReply = z.infer<typeof generateAudioReply>;
export type GenerationStatusReply = z.infer<typeof generationStatusReply>;

export function generateImage(body: GenerateImageBody, signal?: AbortSignal) {
  return apiRequest<GenerateImageReply>('/api/ai/generate/image', { method: 'POST', body, signal });
}

export function generateVideo(body: GenerateVideoBody, signal?: AbortSignal) {
  return apiRequest<GenerateVideoReply>('/api/ai/generate/video', { method: 'POST', body, signal });
}

export function generateAudio(body: GenerateAudioBody, signal?: AbortSignal) {
  return apiRequest<GenerateAudioReply>('/api/ai/generate/audio', { method: 'POST', body, signal });
}

/** POST /api/ai/generate/video/status: the video poll (processing | completed | failed). */
export function videoStatus(taskId: string, signal?: AbortSignal) {
  return apiRequest<GenerationStatusReply>('/api/ai/generate/video/status', {
    method: 'POST',
    body: { taskId },
    signal,
  });
}

/** POST /api/ai/status: the generic status call, used for image and audio work answered with a task. */
export function taskStatus(taskId: string, signal?: AbortSignal) {
  return apiRequest<GenerationStatusReply>('/api/ai/status', { method: 'POST', body: { taskId }, signal });
}

/** A reply's `data` is a running task (a task id and no url yet: poll it) rather than finished media. */
export function isTaskAccepted(data: unknown): data is TaskAccepted {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false;
  const reply = data as { taskId?: unknown; url?: unknown };
  return typeof reply.taskId === 'string' && !(typeof reply.url === 'string' && reply.url);
}
