// Image and video enhancement runs (canvas spec 4, 8, 9). They live outside the dialogs so closing a dialog
// does not stop following the task: start → toast → follow it (web/api/tasks.ts) up to the limit.
import i18next from 'i18next';
import { toast } from 'sonner';
import { CANVAS } from '../../../../common/api/canvas-images.constants.ts';
import type { EnhancorKind } from '../../../../common/api/generation.constants.ts';
import type { VideoEnhanceCategory, VideoEnhanceQuality } from '../../../../common/api/uploads.constants.ts';
import { TaskWatchTimeout, watchTask } from '../../../api/tasks.ts';
import { type CanvasImage, useCanvas } from '../store.ts';
import { failureText, queueEnhancor, TaskFailedError, topazEnhance } from './api.ts';
import {
  CANVAS_DIALOG_MESSAGES,
  decideEnhancePoll,
  enhancedPlacement,
  IMAGE_ENHANCE_POLL,
  imageEnhanceRequest,
  type PollStep,
  VIDEO_ENHANCE_POLL,
} from './rules.ts';

/**
 * Follows a task until it is done, failed or the attempts' time (interval × attempts) runs out. A task that
 * cannot be read is given up as timed out, as the old checks that kept failing were.
 */
async function followTask(requestId: string, limits: { intervalMs: number; maxAttempts: number }): Promise<PollStep> {
  const task = await watchTask(requestId, { timeoutMs: limits.intervalMs * limits.maxAttempts }).catch(
    (error: unknown) => {
      if (!(error instanceof TaskWatchTimeout)) console.error('Enhancement status check failed', error);
      return null;
    },
  );
  // Finished, or given up: a finished task without its url reads as a time-out, as at the last attempt.
  return decideEnhancePoll(limits.maxAttempts, task, limits);
}

/**
 * Starts one image enhancement of a canvas image and follows it; on completion the enhanced image is added
 * 2150 px right of its source at 1920x1080. Resolves once started (true) or refused (false).
 */
export async function startImageEnhancement(image: CanvasImage, kind: EnhancorKind, serviceName: string) {
  const { path, body } = imageEnhanceRequest(kind, image.url, image.assetId);
  let requestId: string;
  try {
    requestId = (await queueEnhancor(path, body)).requestId;
  } catch (error) {
    console.error('Enhancement request failed', error);
    toast.error(failureText(error, CANVAS_DIALOG_MESSAGES.enhancementFailed));
    return false;
  }
  toast.success(i18next.t('canvasDialogs.enhance.started', { name: serviceName }));
  const canvas = useCanvas.getState();
  canvas.startEnhancement();
  void (async () => {
    try {
      const step = await followTask(requestId, IMAGE_ENHANCE_POLL);
      if (step.kind === 'done') {
        const { images } = useCanvas.getState();
        const source = images.find((img) => img.id === image.id) ?? image;
        const added = useCanvas.getState().addImage({
          url: step.url,
          thumbnailUrl: null,
          name: `${image.name} (${serviceName})`,
          prompt: image.prompt,
          ...enhancedPlacement(source, images),
        });
        if (added) {
          useCanvas.getState().reveal(added);
          toast.success(i18next.t('canvasDialogs.enhance.added', { name: serviceName }));
        } else {
          toast.error(i18next.t('canvasEditor.limitReached', { max: CANVAS.maxImages }));
        }
      } else if (step.kind === 'timeout') {
        toast.error(i18next.t('canvasDialogs.enhance.timedOut'));
      } else {
        toast.error(i18next.t('canvasDialogs.enhance.failed'));
        if (step.kind === 'failed' && step.message) console.error('Enhancement failed:', step.message);
      }
    } finally {
      useCanvas.getState().finishEnhancement();
    }
  })();
  return true;
}

interface VideoEnhanceSettings {
  videoUrl?: string;
  assetId?: string;
  model: string;
  modelName: string;
  option: string;
  category: VideoEnhanceCategory;
  scale: 2 | 3 | 4;
  fps: 24 | 30 | 60 | 120;
  quality: VideoEnhanceQuality;
}

/** Starts a Topaz enhancement and follows it; `onEnhanced` gets the finished URL. */
export async function startVideoEnhancement(settings: VideoEnhanceSettings, onEnhanced?: (url: string) => void) {
  let requestId: string;
  try {
    requestId = (
      await topazEnhance({
        videoUrl: settings.videoUrl,
        model: settings.model,
        options: {
          scale: settings.scale,
          fps: settings.fps,
          quality: settings.quality,
          category: settings.category,
          option: settings.option,
          ...(settings.assetId ? { original_asset_id: settings.assetId } : {}),
        },
      })
    ).requestId;
  } catch (error) {
    console.error('Video enhancement request failed', error);
    toast.error(failureText(error, CANVAS_DIALOG_MESSAGES.videoEnhancementFailed));
    return false;
  }
  toast.success(i18next.t('canvasDialogs.video.started', { model: settings.modelName }));
  useCanvas.getState().startEnhancement('video');
  void (async () => {
    try {
      const step = await followTask(requestId, VIDEO_ENHANCE_POLL);
      if (step.kind === 'done') {
        toast.success(i18next.t('canvasDialogs.video.done'));
        onEnhanced?.(step.url);
      } else if (step.kind === 'timeout') {
        toast.error(i18next.t('canvasDialogs.video.timedOut'));
      } else {
        toast.error(i18next.t('canvasDialogs.enhance.failed'));
        if (step.kind === 'failed' && step.message) console.error('Video enhancement failed:', step.message);
      }
    } finally {
      useCanvas.getState().finishEnhancement('video');
    }
  })();
  return true;
}

/** Slow NanoBana work answers with url null and a task id: follow it (every 3 s, up to 10 minutes). */
export async function finishedUrl(data: { url: string | null; taskId: string }): Promise<string> {
  if (data.url) return data.url;
  const step = await followTask(data.taskId, { intervalMs: 3_000, maxAttempts: 200 });
  if (step.kind === 'done') return step.url;
  if (step.kind === 'failed' && step.message) throw new TaskFailedError(step.message);
  throw new Error('The task did not finish');
}
