import { CANVAS_IMAGES } from '../../../common/api/canvas-images.constants.ts';
import { MAGIC_SELECTOR } from '../../../common/api/inpaint.constants.ts';
import type { InpaintBody, InpaintReply } from '../../../common/api/inpaint.ts';
import { magicSelectorPrompt } from '../../../common/api/inpaint.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { finishedTask, generatedMediaOf } from '../../platform/jobs/outcome.ts';
import { inlineOrMediaRef, type MediaFormats, prepareMediaRef } from '../../platform/media/inputs.ts';
import { MediaStore } from '../../platform/media/store.ts';
import { visiblePersona } from '../../platform/persona-access.ts';
import { imageReply } from '../canvas-images/service.ts';
import { INPAINT_KIND, MAGIC_SELECTOR_FORMATS } from './tasks.ts';

const MB = 1024 * 1024;

/**
 * POST /api/ai/generate/inpaint: checks the prompt and the images (own media, images only, 10 MB),
 * reserves `inpaint` (from the serving engine's price list) and runs the `inpaint.image` task; answers the saved asset (or the task
 * while it still runs after ~20 s). A failure is refunded and answered as 'Inpainting failed'.
 */
export async function inpaint(ctx: AppContext, userId: string, body: InpaintBody): Promise<InpaintReply> {
  const prompt = magicSelectorPrompt(body.mode, body.prompt);
  if (prompt) ctx.engines.checkPrompt(prompt);
  if (body.personaId) await visiblePersona(ctx, userId, body.personaId);
  const model = MAGIC_SELECTOR.model;
  ctx.engines.image(model);
  const credits = ctx.engines.prices('image', model).inpaint;
  const stored: string[] = [];
  // The base and the reference are the spec's formats; the mask is drawn by the panel (any image).
  const prepare = async (ref: string, formats?: MediaFormats) => {
    const prepared = await prepareMediaRef(ctx, userId, inlineOrMediaRef(ref), {
      maxBytes: MAGIC_SELECTOR.inputMaxMb * MB,
      // The user's own stored images (a 4K canvas image) by reference, up to the image upload ceiling.
      maxStoredBytes: CANVAS_IMAGES.storedInputMaxMb * MB,
      allowed: ['image'],
      formats,
    });
    stored.push(...prepared.storedKeys);
    return prepared.ref;
  };
  let taskId: string;
  try {
    const base = await prepare(body.baseImage, MAGIC_SELECTOR_FORMATS);
    const mask = await prepare(body.maskImage);
    const useReference = (MAGIC_SELECTOR.referenceModes as readonly string[]).includes(body.mode);
    const reference =
      useReference && body.referenceImage ? await prepare(body.referenceImage, MAGIC_SELECTOR_FORMATS) : null;
    const task = await ctx.jobs.createTask({
      userId,
      kind: INPAINT_KIND,
      input: {
        model,
        prompt,
        mode: body.mode,
        quality: body.quality,
        base,
        mask,
        reference,
        styleStrength: body.styleStrength / 100,
        personaId: body.personaId ?? null,
        creditsEach: credits,
      },
      credits,
      estimatedSeconds: 5,
      description: `Magic Selector ${body.mode} (${model})`,
      generationType: 'image',
    });
    taskId = task.id;
  } catch (error) {
    const store = new MediaStore(ctx);
    for (const key of stored) await store.delete(key).catch(() => undefined);
    throw error;
  }
  const task = await finishedTask(ctx, userId, taskId, MESSAGES.magicSelector.failed);
  return imageReply(task, generatedMediaOf(task)[0], credits, { engine: ctx.engines.image(model).engine.name, model });
}
