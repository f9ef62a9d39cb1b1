import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { z } from 'zod';
import { UPLOAD_STORAGE_CEILINGS_MB } from '../../../common/api/generation.constants.ts';
import { PERSONA_GENERATION } from '../../../common/api/personas.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import {
  BASE_IMAGE_TYPE,
  PERSONA_IMAGE,
  PERSONA_IMAGE_TYPES,
  type PersonaImageType,
  personaProgress,
} from '../../../common/rules/personas.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { type PersonaImageRecord, type PersonaImages, personas } from '../../db/schema/index.ts';
import type { ImageResult, MediaBuffer } from '../../engines/types.ts';
import { addCredits } from '../../platform/credits/ledger.ts';
import { defineTask, PermanentTaskError, type TaskRow } from '../../platform/jobs/types.ts';
import { extensionOf, resolveMediaInput } from '../../platform/media/inputs.ts';
import { webpThumbnail } from '../../platform/media/probe.ts';
import { MediaStore } from '../../platform/media/store.ts';
import { createAsset, deleteAsset } from '../assets/service.ts';

// The persona image set as a task (spec 4, Persona creation): face_only first, then portrait,
// full_body, action_shot and environment, each conditioned on the face_only image through the image
// engine's reference input (plus the user's character images). 60 s per image, 1 s between
// generations, the persona's progress written after each image. An image that fails becomes an
// explicit placeholder (refunded); a failed base or no image at all fails the task (refunded in full).

export const PERSONA_IMAGES_KIND = 'persona.images';
const SERVICE = 'nanobana';
const IMAGE_INPUT_MAX_BYTES = UPLOAD_STORAGE_CEILINGS_MB.image * 1024 * 1024;

type PersonaRow = typeof personas.$inferSelect;

const personaImagesInput = z.object({
  personaId: z.uuid(),
  /** The image types to (re)generate; always generated in PERSONA_IMAGE_TYPES order. */
  types: z.array(z.enum(PERSONA_IMAGE_TYPES)).min(1),
  /** Credits reserved per image (refunded for each placeholder). */
  unitPrice: z.number().int().min(0),
});
export type PersonaImagesInput = z.infer<typeof personaImagesInput>;

const TYPE_DIRECTIONS: Record<PersonaImageType, string> = {
  face_only:
    'Close-up headshot showing only the face, looking straight at the camera, neutral expression, plain light-grey studio background, soft even lighting, photorealistic.',
  portrait:
    'Head-and-shoulders portrait of the same person as the reference face, professional photography, shallow depth of field, soft window light.',
  full_body:
    'Full-body photograph of the same person as the reference face, standing, visible from head to toe, clean studio backdrop, natural pose.',
  action_shot:
    'Dynamic action shot of the same person as the reference face, in motion doing something that fits their personality, candid, energetic.',
  environment:
    'Wide environmental photograph of the same person as the reference face in a setting that fits them and their audience, natural light, storytelling composition.',
};

/** The engine prompt of one image type, built from the persona's fields. */
function personaImagePrompt(persona: PersonaRow, type: PersonaImageType): string {
  const who = [persona.nationality, persona.personality.toLowerCase()].filter(Boolean).join(', ');
  const parts = [
    `${persona.name}${who ? ` (${who})` : ''}: ${persona.description}`,
    persona.basedOn ? `Inspired by ${persona.basedOn}.` : '',
    persona.targetAudience ? `Appeals to ${persona.targetAudience}.` : '',
    TYPE_DIRECTIONS[type],
  ];
  return parts.filter(Boolean).join(' ').slice(0, 3500);
}

/** An empty record of a type: waiting to be generated, no file. */
export function pendingImage(): PersonaImageRecord {
  return { status: 'pending', key: null, url: null, thumbnailKey: null, assetId: null, taskId: null, error: null };
}

/**
 * What the images of `types` become when a task ends early: a pending image that still has its
 * previous file goes back to ready (a failed regeneration keeps the old image); one without a file
 * becomes a placeholder.
 */
function settleImages(images: PersonaImages, types: readonly PersonaImageType[], error: string): PersonaImages {
  const out = { ...images };
  for (const type of types) {
    const image = out[type];
    if (image.status !== 'pending') continue;
    out[type] = image.key ? { ...image, status: 'ready', error } : { ...image, status: 'placeholder', error };
  }
  return out;
}

const hasReady = (images: PersonaImages) => PERSONA_IMAGE_TYPES.some((t) => images[t].status === 'ready');

class ImageTimeoutError extends Error {}

/** Runs one engine call with its own 60 s limit; the task's signal still stops it. */
async function withImageTimeout<T>(parent: AbortSignal, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      run(controller.signal),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new ImageTimeoutError('The image took longer than 60 seconds'));
        }, PERSONA_GENERATION.imageTimeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    parent.removeEventListener('abort', onAbort);
  }
}

async function loadPersona(db: Db, id: string): Promise<PersonaRow | null> {
  const [row] = await db.select().from(personas).where(eq(personas.id, id)).limit(1);
  return row ?? null;
}

/** Loads an image the user may use (own or public); null when it is gone or does not decode. */
async function loadImage(
  ctx: AppContext,
  userId: string,
  ref: string,
  signal: AbortSignal,
): Promise<MediaBuffer | null> {
  try {
    const media = await resolveMediaInput(ctx, userId, ref, {
      maxBytes: IMAGE_INPUT_MAX_BYTES,
      allowed: ['image'],
      signal,
    });
    const meta = await sharp(media.data).metadata();
    return meta.width && meta.height ? media : null;
  } catch (error) {
    if (signal.aborted) throw error;
    ctx.log.warn({ err: error }, 'a persona reference image could not be loaded');
    return null;
  }
}

/** Stores one generated image under the persona, with its thumbnail and asset (persona_id set). */
async function saveImage(
  ctx: AppContext,
  persona: PersonaRow,
  task: TaskRow,
  type: PersonaImageType,
  prompt: string,
  result: ImageResult,
  unitPrice: number,
): Promise<PersonaImageRecord> {
  const store = new MediaStore(ctx);
  const stored: string[] = [];
  try {
    const ext = extensionOf(result.mimeType);
    const put = await store.put({
      body: result.data,
      contentType: result.mimeType,
      ext: ext === 'bin' ? 'png' : ext,
      storageClass: 'persona',
      userId: persona.userId,
      personaId: persona.id,
      isPublic: persona.isPublic,
      source: 'persona',
      tags: { GenerationId: task.id },
    });
    stored.push(put.key);
    const thumb = await store.put({
      body: await webpThumbnail(result.data),
      contentType: 'image/webp',
      ext: 'webp',
      storageClass: 'thumbnail',
      userId: persona.userId,
      personaId: persona.id,
      isPublic: persona.isPublic,
      source: 'thumbnail',
      tags: { GenerationId: task.id },
    });
    stored.push(thumb.key);
    const asset = await createAsset(ctx, {
      userId: persona.userId,
      personaId: persona.id,
      type: 'image',
      key: put.key,
      url: put.url,
      thumbnailKey: thumb.key,
      prompt,
      service: SERVICE,
      model: PERSONA_IMAGE.model,
      creditsUsed: unitPrice,
      taskId: task.id,
      metadata: {
        ...result.metadata,
        source: 'persona',
        generator: SERVICE,
        taskId: task.id,
        persona_image_type: type,
        width: result.width,
        height: result.height,
        seed: result.seed,
      },
    });
    return {
      status: 'ready',
      key: put.key,
      url: put.url,
      thumbnailKey: thumb.key,
      assetId: asset.id,
      taskId: task.id,
      error: null,
    };
  } catch (error) {
    for (const key of stored) await store.delete(key).catch(() => undefined);
    throw error;
  }
}

/** Writes one image's record and the progress, only while this task still owns the persona. */
async function recordImage(
  ctx: AppContext,
  persona: PersonaRow,
  taskId: string,
  type: PersonaImageType,
  record: PersonaImageRecord,
  progress: number,
): Promise<PersonaRow> {
  const images = { ...persona.images, [type]: record };
  const [row] = await ctx.db
    .update(personas)
    .set({ images, generationProgress: progress, updatedAt: ctx.clock.now() })
    .where(and(eq(personas.id, persona.id), eq(personas.generationTaskId, taskId)))
    .returning();
  if (!row) throw new PermanentTaskError('superseded', MESSAGES.personas.notFound);
  return row;
}

export const personaImagesTask = defineTask({
  kind: PERSONA_IMAGES_KIND,
  input: personaImagesInput,
  retryLimit: 1,
  retryDelaySeconds: 3,
  // Five images of at most 60 s each, four 1 s pauses, and the saving.
  expireInSeconds: 600,
  async handler({ task, input, ctx, report, signal }) {
    const loaded = await loadPersona(ctx.db, input.personaId);
    if (!loaded || loaded.userId !== task.userId || loaded.generationTaskId !== task.id) {
      throw new PermanentTaskError('not_found', MESSAGES.personas.notFound);
    }
    let persona: PersonaRow = loaded;
    const order = PERSONA_IMAGE_TYPES.filter((t) => input.types.includes(t));
    if (persona.status !== 'generating') return { personaId: persona.id, status: persona.status };

    const { engine } = ctx.engines.image(PERSONA_IMAGE.model);
    const characterRefs: MediaBuffer[] = [];
    for (const ref of persona.characterImages) {
      const media = await loadImage(ctx, task.userId, ref, signal);
      if (media) characterRefs.push(media);
    }

    const done = () => order.filter((t) => persona.images[t].taskId === task.id).length;
    let generatedOne = false;
    for (const type of order) {
      const current = persona.images[type];
      // A retried attempt keeps what the earlier attempt finished.
      if (current.taskId === task.id && current.status !== 'pending') continue;
      if (generatedOne) await sleep(PERSONA_GENERATION.pauseMs, undefined, { signal });
      generatedOne = true;

      let references = characterRefs;
      if (type !== BASE_IMAGE_TYPE) {
        const base = persona.images[BASE_IMAGE_TYPE];
        const baseMedia =
          base.status === 'ready' && base.url ? await loadImage(ctx, task.userId, base.url, signal) : null;
        if (!baseMedia) {
          const record = settleImages(
            { ...persona.images, [type]: current },
            [type],
            MESSAGES.personas.baseImageFailed,
          );
          const progress = personaProgress(done() + 1, order.length);
          persona = await recordImage(ctx, persona, task.id, type, { ...record[type], taskId: task.id }, progress);
          continue;
        }
        references = [baseMedia, ...characterRefs];
      }

      const prompt = personaImagePrompt(persona, type);
      let record: PersonaImageRecord;
      try {
        const result = await withImageTimeout(signal, (imageSignal) =>
          engine.textToImage(
            {
              model: PERSONA_IMAGE.model,
              prompt,
              width: PERSONA_GENERATION.size,
              height: PERSONA_GENERATION.size,
              quality: PERSONA_IMAGE.quality,
              referenceImages: references.length > 0 ? references : undefined,
            },
            { signal: imageSignal },
          ),
        );
        record = await saveImage(ctx, persona, task, type, prompt, result, input.unitPrice);
      } catch (error) {
        if (signal.aborted) throw error;
        ctx.log.warn({ err: error, personaId: persona.id, type }, 'a persona image failed');
        if (type === BASE_IMAGE_TYPE) {
          throw new PermanentTaskError('persona_base_failed', MESSAGES.personas.baseImageFailed);
        }
        const message = error instanceof ImageTimeoutError ? error.message : MESSAGES.generation.imageFailed;
        record = current.key
          ? { ...current, status: 'ready', taskId: task.id, error: message }
          : { ...pendingImage(), status: 'placeholder', taskId: task.id, error: message };
      }
      const replaced = current.assetId && current.assetId !== record.assetId ? current.assetId : null;
      persona = await recordImage(ctx, persona, task.id, type, record, personaProgress(done() + 1, order.length));
      if (replaced) await deleteAsset(ctx, persona.userId, replaced).catch(() => undefined);
      await report({ progress: Math.min(99, personaProgress(done(), order.length)) });
    }

    const made = order.filter((t) => {
      const image = persona.images[t];
      return image.taskId === task.id && image.status === 'ready' && !image.error;
    });
    if (made.length === 0) throw new PermanentTaskError('persona_no_images', MESSAGES.personas.noImagesGenerated);
    const missing = order.filter((t) => !made.includes(t));
    const refund = missing.length * input.unitPrice;
    const personaId = persona.id;
    await ctx.db.transaction(async (tx) => {
      const [finished] = await tx
        .update(personas)
        .set({
          status: 'ready',
          generationProgress: 100,
          generationError: missing.length > 0 ? MESSAGES.personas.imagesSaveFailed : null,
          updatedAt: ctx.clock.now(),
        })
        .where(
          and(eq(personas.id, personaId), eq(personas.generationTaskId, task.id), eq(personas.status, 'generating')),
        )
        .returning({ id: personas.id });
      // Refund the placeholders once: only the attempt that moved the persona to ready does it.
      if (finished && refund > 0) {
        await addCredits(tx, {
          userId: task.userId,
          amount: refund,
          source: 'refund',
          description: `Persona images not generated (${missing.join(', ')})`,
          generationType: 'persona',
          taskId: task.id,
        });
      }
    });
    return { personaId, status: 'ready', generated: made, placeholders: missing, creditsRefunded: refund };
  },
  async onFailed({ task, tx, ctx, error }) {
    const parsed = personaImagesInput.safeParse(task.input);
    if (!parsed.success) return;
    const [row] = await tx
      .select()
      .from(personas)
      .where(and(eq(personas.id, parsed.data.personaId), eq(personas.generationTaskId, task.id)))
      .limit(1);
    if (row?.status !== 'generating') return;
    const images = settleImages(row.images, parsed.data.types, error.message);
    await tx
      .update(personas)
      .set({
        images,
        status: hasReady(images) ? 'ready' : 'failed',
        generationProgress: 100,
        generationError: error.message,
        updatedAt: ctx.clock.now(),
      })
      .where(eq(personas.id, row.id));
  },
});
