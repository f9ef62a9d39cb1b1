// Canvas generate and upload (canvas spec 2, 7, 8): POST /api/ai/generate/image with the format's model,
// POST /api/upload for files; results go to the first free grid cells and the last one is brought into view. Messages are i18n keys under canvasEditor.
import { CANVAS } from '../../../common/api/canvas-images.constants.ts';
import { generationStatusOf } from '../../../common/rules/generation-status.ts';
import { isAbort } from '../../api/abort.ts';
import { generateImage, isTaskAccepted } from '../../api/generation.ts';
import { getToken } from '../../api/session.ts';
import { TaskWatchTimeout, watchTask } from '../../api/tasks.ts';
import { uploadFiles } from '../../api/uploads.ts';
import { engineOf } from '../../ui/EngineBadge.tsx';
import { besideSpot, containSize } from './rules.ts';
import { type CanvasImage, type NewCanvasImage, useCanvas } from './store.ts';

/** What a canvas action reports: added images, or an i18n key (canvasEditor.errors.*) to show. */
export type CanvasActionResult = { ok: true; images: CanvasImage[] } | { ok: false; errorKey: string };

/** A generation that has not finished after 5 minutes is given up. */
const TASK_TIMEOUT_MS = 5 * 60_000;

interface Produced {
  url: string;
  thumbnailUrl: string | null;
  assetId?: string;
  width?: number | null;
  height?: number | null;
  engine?: string | null;
}

/** Generates with the current format (4K|TV: seedream4 16:9 3840×2160; 2K|Mobile: nanobana 1:1 2048×2048). */
export async function generateOnCanvas(prompt: string, signal?: AbortSignal): Promise<CanvasActionResult> {
  const text = prompt.trim();
  if (!text) return { ok: false, errorKey: 'canvasEditor.promptRequired' };
  if (!getToken()) return { ok: false, errorKey: 'canvasEditor.errors.auth' };
  const state = useCanvas.getState();
  if (state.images.length >= CANVAS.maxImages) return { ok: false, errorKey: 'canvasEditor.limitReached' };
  const format = CANVAS.formats[state.format];
  let produced: Produced[];
  try {
    const reply = await generateImage(
      {
        prompt: text,
        model: state.imageModel,
        aspectRatio: format.aspectRatio,
        sampleImageSize: format.size,
        size: `${format.width}x${format.height}`,
        // One image per Generate (the canvas spec's numberOfImages); the call's own default is 2 variations.
        numberOfImages: 1,
      },
      signal,
    );
    if (!reply?.success) return { ok: false, errorKey: 'canvasEditor.errors.generationFailed' };
    if (Array.isArray(reply.data)) {
      produced = reply.data
        .filter((item) => typeof item?.url === 'string' && item.url)
        .map((item) => ({
          url: item.url,
          thumbnailUrl: item.thumbnail_url,
          assetId: item.id,
          width: item.width,
          height: item.height,
          engine: engineOf(item.metadata),
        }));
    } else if (isTaskAccepted(reply.data)) {
      const final = await watchTask(reply.data.taskId, { signal, timeoutMs: TASK_TIMEOUT_MS }).catch(
        (error: unknown) => {
          if (error instanceof TaskWatchTimeout) return null;
          throw error;
        },
      );
      const status = final ? generationStatusOf(final) : null;
      if (status?.status === 'failed') return { ok: false, errorKey: 'canvasEditor.errors.generationFailed' };
      produced = status?.url
        ? [
            {
              url: status.url,
              thumbnailUrl: status.thumbnail_url,
              assetId: status.assetId ?? undefined,
              engine: status.engine,
            },
          ]
        : [];
    } else {
      produced = [];
    }
  } catch (error) {
    if (isAbort(error)) throw error;
    if (error && typeof error === 'object' && 'status' in error && error.status === 401) {
      return { ok: false, errorKey: 'canvasEditor.errors.auth' };
    }
    return { ok: false, errorKey: 'canvasEditor.errors.unexpected' };
  }
  if (produced.length === 0) return { ok: false, errorKey: 'canvasEditor.errors.failed' };

  const added: CanvasImage[] = [];
  const { addImage, setInputMode } = useCanvas.getState();
  produced.forEach((item, index) => {
    const image = addImage({
      url: item.url,
      thumbnailUrl: item.thumbnailUrl,
      name: `${text.slice(0, 40)}${produced.length > 1 ? ` (${index + 1})` : ''}`,
      prompt: text,
      assetId: item.assetId,
      naturalWidth: item.width ?? format.width,
      naturalHeight: item.height ?? format.height,
      engine: item.engine ?? null,
    });
    if (image) added.push(image);
  });
  // The spec: the input mode switches to upload after an image is generated.
  setInputMode('upload');
  revealLast(added);
  return { ok: true, images: added };
}

const CANVAS_UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/** Uploads image files (png, jpg, jpeg, webp) and places each on the grid. */
export async function uploadToCanvas(files: readonly File[]): Promise<CanvasActionResult & { failed: number }> {
  if (!getToken()) return { ok: false, errorKey: 'canvasEditor.errors.auth', failed: files.length };
  const images = files.filter((file) => CANVAS_UPLOAD_TYPES.includes(file.type));
  if (images.length === 0) return { ok: false, errorKey: 'canvasEditor.errors.onlyImages', failed: files.length };
  const room = CANVAS.maxImages - useCanvas.getState().images.length;
  if (room <= 0) return { ok: false, errorKey: 'canvasEditor.limitReached', failed: files.length };
  const batch = images.slice(0, room);
  const [settled, sizes] = await Promise.all([
    uploadFiles(batch, { purpose: 'canvas' }),
    Promise.all(batch.map(pixelSize)),
  ]);
  const added: CanvasImage[] = [];
  let failed = files.length - images.length;
  settled.forEach((result, index) => {
    if (result.status !== 'fulfilled') {
      failed += 1;
      return;
    }
    const image = useCanvas.getState().addImage({
      url: result.value.url,
      thumbnailUrl: result.value.thumbnail_url ?? null,
      name: images[index].name,
      naturalWidth: sizes[index]?.width,
      naturalHeight: sizes[index]?.height,
      // An upload is not an asset: its id must not be sent as an asset id (enhancement answered 404).
    });
    if (image) added.push(image);
  });
  if (added.length === 0) return { ok: false, errorKey: 'canvasEditor.errors.uploadFailed', failed };
  revealLast(added);
  return { ok: true, images: added, failed };
}

/** A file's size in pixels as the browser draws it (upright), or undefined when it cannot be decoded here. */
async function pixelSize(file: File): Promise<{ width: number; height: number } | undefined> {
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return undefined;
  }
}

/** New images go to free grid cells, possibly out of sight: bring the last one into view. */
function revealLast(added: readonly CanvasImage[]): void {
  const last = added.at(-1);
  if (last) useCanvas.getState().reveal(last);
}

/**
 * Adds a tool's result beside the canvas image it was made from (to its right, on free space; in the source's box
 * size and the result's own aspect), or in the first free grid cell when there is no such image; selects it and
 * brings it into view. `beside` says whether the source was there. Null at the 1000-image limit.
 */
export function placeBesideSource(
  sourceId: string | null,
  image: NewCanvasImage,
): { image: CanvasImage; beside: boolean } | null {
  const { images } = useCanvas.getState();
  const source = sourceId ? images.find((img) => img.id === sourceId) : undefined;
  const natural = { width: image.naturalWidth, height: image.naturalHeight };
  const spot = source ? besideSpot(images, source, containSize(source, natural)) : {};
  const added = useCanvas.getState().addImage({ ...image, ...spot });
  if (!added) return null;
  useCanvas.getState().select([added.id]);
  useCanvas.getState().reveal(added);
  return { image: added, beside: Boolean(source) };
}
