// What the viewer does with a result besides showing it: put it on the canvas, or start a video from it.
import { VIDEO_DEFAULTS } from '../../../../common/api/generation.constants.ts';
import { nearestVideoAspect, videoModelInputs, videoSubModeOf } from '../../../../common/rules/studio.ts';
import { useCanvas } from '../../canvas/store.ts';
import { addStored } from '../inputs.ts';
import { useStudio } from '../store.ts';
import type { ViewerMedia } from './history.ts';

/** Adds the image to the canvas, selected and in sight; false when the canvas is full. */
export function placeOnCanvas(media: ViewerMedia, name: string): boolean {
  const canvas = useCanvas.getState();
  const added = canvas.addImage({
    url: media.url,
    thumbnailUrl: media.thumbnailUrl,
    name,
    prompt: media.prompt ?? undefined,
    assetId: media.id ?? undefined,
    naturalWidth: media.width ?? undefined,
    naturalHeight: media.height ?? undefined,
    engine: media.engine,
  });
  if (!added) return false;
  canvas.select([added.id]);
  canvas.reveal(added);
  return true;
}

/**
 * Prepares the video form with the image as its reference (scene, style or first frame): a model of the normal
 * mode that takes reference images, and the aspect ratio nearest the image's. The caller switches the mode.
 */
export function prepareVideoFrom(media: ViewerMedia, name: string): void {
  const { video, setVideo } = useStudio.getState();
  const keeps = videoSubModeOf(video.model) === 'normal' && videoModelInputs(video.model).references;
  setVideo({
    model: keeps ? video.model : VIDEO_DEFAULTS.model,
    ...(media.width && media.height ? { aspectRatio: nearestVideoAspect(media.width, media.height) } : {}),
  });
  addStored('videoReferences', [{ url: media.url, name, previewUrl: media.thumbnailUrl ?? media.url }]);
}
