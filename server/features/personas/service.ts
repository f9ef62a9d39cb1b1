import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { generateImageBody } from '../../../common/api/generation.ts';
import type {
  AiGeneratedImages,
  createPersonaBody,
  listPersonasQuery,
  Persona,
  PersonaImage,
  PersonaImageReply,
  PersonaTaskReply,
  personaImageBody,
  updatePersonaImagesBody,
} from '../../../common/api/personas.ts';
import { MESSAGES } from '../../../common/messages.ts';
import {
  BASE_IMAGE_TYPE,
  normaliseTags,
  PERSONA_IMAGE,
  PERSONA_IMAGE_TYPES,
  PERSONA_LIMITS,
  type PersonaImageType,
  personaImageSetPrice,
} from '../../../common/rules/personas.ts';
import type { AppContext } from '../../context.ts';
import {
  campaignWorkspaceItems,
  type PersonaImageRecord,
  type PersonaImages,
  personas,
  type users,
} from '../../db/schema/index.ts';
import { badRequest, conflict, forbidden } from '../../platform/errors.ts';
import { finishedTask, generatedMediaOf } from '../../platform/jobs/outcome.ts';
import { ownedMediaObject, storedKeyOf } from '../../platform/media/inputs.ts';
import { mediaUrl } from '../../platform/media/store.ts';
import { ownPersona, type PersonaRow, UUID, visiblePersona } from '../../platform/persona-access.ts';
import { deleteAsset } from '../assets/service.ts';
import { startImageGeneration } from '../generation/service.ts';
import { taskAcceptedOf } from '../generation/status.ts';
import { engagementTotals, postsWithPersonas } from '../published-posts/published.ts';
import { PERSONA_IMAGES_KIND, type PersonaImagesInput, pendingImage } from './pipeline.ts';

type UserRow = typeof users.$inferSelect;
type CreateInput = z.infer<typeof createPersonaBody>;

const M = MESSAGES.personas;
const taskStatusUrl = (taskId: string) => `/api/tasks/${taskId}`;

function imageDto(type: PersonaImageType, record: PersonaImageRecord): PersonaImage {
  return {
    type,
    status: record.status,
    url: record.url,
    thumbnail_url: record.thumbnailKey ? mediaUrl(record.thumbnailKey, 'image/webp') : null,
    asset_id: record.assetId,
    error: record.error,
  };
}

/** The spec's Persona as the clients read it. */
function toPersonaDto(row: PersonaRow, viewerId: string, stats: PersonaStats = NO_STATS): Persona {
  const ai: AiGeneratedImages = {
    portrait: row.images.portrait.url,
    full_body: row.images.full_body.url,
    face_only: row.images.face_only.url,
    action_shot: row.images.action_shot.url,
    environment: row.images.environment.url,
  };
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    personality: row.personality,
    target_audience: row.targetAudience,
    targetAudience: row.targetAudience,
    nationality: row.nationality,
    language: row.language,
    characterImages: row.characterImages,
    custom_images: row.characterImages,
    based_on: row.basedOn,
    avatar_url: row.avatarUrl,
    avatar: row.avatarUrl ?? ai.face_only ?? ai.portrait,
    tags: row.tags,
    isPublic: row.isPublic,
    isOwner: row.userId === viewerId,
    ai_generated_images: ai,
    images: PERSONA_IMAGE_TYPES.map((type) => imageDto(type, row.images[type])),
    license_type: row.licenseType,
    license_price: row.licensePriceCents / 100,
    usage_count: stats.usage,
    totalReach: stats.views,
    total_engagement: stats.engagement,
    status: row.status,
    generation_progress: row.generationProgress,
    generation_task_id: row.generationTaskId,
    generation_error: row.generationError,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

interface PersonaStats {
  usage: number;
  views: number | null;
  engagement: number | null;
}
const NO_STATS: PersonaStats = { usage: 0, views: null, engagement: null };

/**
 * Per persona: how many campaign workspace entries hold it (the spec's usage_count, shown as campaigns used),
 * and its reach and engagement: the figures of the published posts carrying media made with it
 * (social/published.ts postsWithPersonas, engagementTotals).
 */
async function personaStats(ctx: AppContext, ids: readonly string[]): Promise<Map<string, PersonaStats>> {
  if (ids.length === 0) return new Map();
  const [usage, posts] = await Promise.all([
    ctx.db
      .select({ personaId: campaignWorkspaceItems.personaId, n: count() })
      .from(campaignWorkspaceItems)
      .where(inArray(campaignWorkspaceItems.personaId, [...ids]))
      .groupBy(campaignWorkspaceItems.personaId),
    postsWithPersonas(ctx, ids),
  ]);
  const used = new Map(usage.map((r) => [r.personaId ?? '', Number(r.n)]));
  return new Map(
    ids.map((id) => {
      const figures = engagementTotals(posts.filter((p) => p.personaId === id));
      return [id, { usage: used.get(id) ?? 0, views: figures.views, engagement: figures.engagement }];
    }),
  );
}

async function dtoOf(ctx: AppContext, row: PersonaRow, viewerId: string): Promise<Persona> {
  const stats = await personaStats(ctx, [row.id]);
  return toPersonaDto(row, viewerId, stats.get(row.id));
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** GET /api/personas: the user's personas and public ones, newest first; search over name, description and tags. */
export async function listPersonas(
  ctx: AppContext,
  userId: string,
  query: z.infer<typeof listPersonasQuery>,
): Promise<Persona[]> {
  const filters: SQL[] = [or(eq(personas.userId, userId), eq(personas.isPublic, true)) as SQL];
  if (query.status) filters.push(eq(personas.status, query.status));
  const search = query.search?.trim();
  if (search) {
    const pattern = `%${escapeLike(search)}%`;
    filters.push(
      or(
        ilike(personas.name, pattern),
        ilike(personas.description, pattern),
        sql`${personas.tags}::text ilike ${pattern}`,
      ) as SQL,
    );
  }
  const rows = await ctx.db
    .select()
    .from(personas)
    .where(and(...filters))
    .orderBy(desc(personas.createdAt), desc(personas.id))
    .limit(500);
  const stats = await personaStats(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toPersonaDto(row, userId, stats.get(row.id)));
}

export async function getPersona(ctx: AppContext, userId: string, id: string): Promise<Persona> {
  return dtoOf(ctx, await visiblePersona(ctx, userId, id), userId);
}

/** The canonical URL of one of the user's own stored images; `message` when it is not one. */
async function ownImageUrl(ctx: AppContext, userId: string, ref: string, message: string): Promise<string> {
  const key = storedKeyOf(ctx.config, ref);
  if (!key) throw badRequest(message, { url: ref });
  const row = await ownedMediaObject(ctx, userId, key).catch(() => null);
  if (!row || row.userId !== userId || !row.contentType.startsWith('image/')) throw badRequest(message, { url: ref });
  return mediaUrl(row.key, row.contentType, row.storageClass);
}

/** Whether the user is the designated admin account allowed to create public personas (PUBLIC_PERSONA_ADMIN_EMAIL). */
export function mayPublishPersonas(ctx: AppContext, user: Pick<UserRow, 'email'>): boolean {
  const designated = ctx.config.PUBLIC_PERSONA_ADMIN_EMAIL;
  return Boolean(designated) && user.email.trim().toLowerCase() === designated;
}

const emptyImages = (): PersonaImages =>
  Object.fromEntries(PERSONA_IMAGE_TYPES.map((t) => [t, pendingImage()])) as PersonaImages;

/** Queues the image-set task for the types given (credits reserved on the task; 402 when short). */
async function queueImageSet(
  ctx: AppContext,
  persona: PersonaRow,
  taskId: string,
  types: readonly PersonaImageType[],
): Promise<{ taskId: string; credits: number }> {
  ctx.engines.image(PERSONA_IMAGE.model); // 503 before any spend when no engine may serve it
  const prices = ctx.engines.prices('image', PERSONA_IMAGE.model);
  const credits = personaImageSetPrice(types.length, prices);
  const input: PersonaImagesInput = { personaId: persona.id, types: [...types], unitPrice: prices.personaImage };
  await ctx.jobs.createTask({
    id: taskId,
    userId: persona.userId,
    kind: PERSONA_IMAGES_KIND,
    input,
    credits,
    estimatedSeconds: types.length * 3 + Math.max(0, types.length - 1),
    description: `Persona images (${types.length} × ${PERSONA_IMAGE.size}, ${persona.name})`.slice(0, 200),
    generationType: 'persona',
  });
  return { taskId, credits };
}

/**
 * POST /api/personas: checks the fields, writes the persona (status generating, progress 0), then
 * queues its five images as a task. A public persona needs the designated admin account (403). When
 * the credits are short (402) the persona is removed again.
 */
export async function createPersona(ctx: AppContext, user: UserRow, body: CreateInput): Promise<PersonaTaskReply> {
  if (body.isPublic && !mayPublishPersonas(ctx, user)) throw forbidden(M.publicNotAllowed, 'public_not_allowed');
  const refs = [...new Set([...(body.custom_images ?? []), ...(body.characterImages ?? [])])];
  if (refs.length > PERSONA_LIMITS.maxCharacterImages) {
    throw badRequest(M.tooManyCharacterImages(PERSONA_LIMITS.maxCharacterImages));
  }
  const characterImages: string[] = [];
  for (const ref of refs) characterImages.push(await ownImageUrl(ctx, user.id, ref, M.characterImageNotOwn));
  const avatarUrl = body.avatar_url ? await ownImageUrl(ctx, user.id, body.avatar_url, M.avatarNotOwn) : null;
  const tags = normaliseTags(body.tags);
  if (tags.length > PERSONA_LIMITS.maxTags) throw badRequest(M.tooManyTags(PERSONA_LIMITS.maxTags));
  // The image prompts are built from these fields: check them before anything is written or spent.
  ctx.engines.checkPrompt(
    [body.name, body.description, body.target_audience ?? body.targetAudience, body.based_on]
      .filter(Boolean)
      .join('\n'),
  );

  const taskId = randomUUID();
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .insert(personas)
    .values({
      userId: user.id,
      name: body.name,
      description: body.description,
      personality: body.personality,
      targetAudience: body.target_audience ?? body.targetAudience ?? null,
      nationality: body.nationality,
      language: body.language,
      characterImages: [...new Set(characterImages)],
      basedOn: body.based_on,
      avatarUrl,
      tags,
      isPublic: body.isPublic,
      images: emptyImages(),
      licenseType: body.license_type,
      licensePriceCents: body.license_type === 'free' ? 0 : Math.round(body.license_price * 100),
      status: 'generating',
      generationProgress: 0,
      generationTaskId: taskId,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  try {
    const { credits } = await queueImageSet(ctx, row, taskId, PERSONA_IMAGE_TYPES);
    return {
      success: true,
      data: toPersonaDto(row, user.id),
      taskId,
      statusUrl: taskStatusUrl(taskId),
      creditsReserved: credits,
    };
  } catch (error) {
    await ctx.db.delete(personas).where(eq(personas.id, row.id));
    throw error;
  }
}

/**
 * POST /api/personas/{id}/update-images: sets images of the user's persona to images already in their
 * library. The persona becomes ready when it has at least one image.
 */
export async function updatePersonaImages(
  ctx: AppContext,
  userId: string,
  id: string,
  body: z.infer<typeof updatePersonaImagesBody>,
): Promise<Persona> {
  const row = await ownPersona(ctx, userId, id);
  if (row.status === 'generating') throw conflict(M.stillGenerating);
  const given = PERSONA_IMAGE_TYPES.filter((t) => body.ai_generated_images[t] !== undefined);
  if (given.length === 0) throw badRequest(M.imagesRequired);
  const images = { ...row.images };
  for (const type of given) {
    const ref = body.ai_generated_images[type] as string;
    const key = storedKeyOf(ctx.config, ref);
    const object = key ? await ownedMediaObject(ctx, userId, key).catch(() => null) : null;
    if (!object || object.userId !== userId || !object.contentType.startsWith('image/')) {
      throw badRequest(M.imageNotOwn, { type, url: ref });
    }
    images[type] = {
      status: 'ready',
      key: object.key,
      url: mediaUrl(object.key, object.contentType, object.storageClass),
      thumbnailKey: null,
      assetId: null,
      taskId: null,
      error: null,
    };
  }
  const ready = PERSONA_IMAGE_TYPES.some((t) => images[t].status === 'ready');
  const [updated] = await ctx.db
    .update(personas)
    .set({
      images,
      ...(ready ? { status: 'ready' as const, generationProgress: 100, generationError: null } : {}),
      updatedAt: ctx.clock.now(),
    })
    .where(and(eq(personas.id, row.id), eq(personas.userId, userId)))
    .returning();
  return dtoOf(ctx, updated, userId);
}

/**
 * POST /api/personas/{id}/regenerate: one image type, or all five, as a new task. Without a ready
 * face_only image the base is regenerated too (every other image is conditioned on it). The old image
 * stays until its replacement is saved; a failed regeneration keeps it.
 */
export async function regeneratePersona(
  ctx: AppContext,
  userId: string,
  id: string,
  imageType: PersonaImageType | undefined,
): Promise<PersonaTaskReply> {
  const row = await ownPersona(ctx, userId, id);
  if (row.status === 'generating') throw conflict(M.stillGenerating);
  const wanted = new Set<PersonaImageType>(imageType ? [imageType] : PERSONA_IMAGE_TYPES);
  if (row.images[BASE_IMAGE_TYPE].status !== 'ready') wanted.add(BASE_IMAGE_TYPE);
  const types = PERSONA_IMAGE_TYPES.filter((t) => wanted.has(t));
  const images = { ...row.images };
  for (const type of types) images[type] = { ...images[type], status: 'pending', taskId: null, error: null };
  const taskId = randomUUID();
  const [updated] = await ctx.db
    .update(personas)
    .set({
      images,
      status: 'generating',
      generationProgress: 0,
      generationTaskId: taskId,
      generationError: null,
      updatedAt: ctx.clock.now(),
    })
    .where(and(eq(personas.id, row.id), eq(personas.userId, userId), eq(personas.status, row.status)))
    .returning();
  if (!updated) throw conflict(M.stillGenerating);
  try {
    const { credits } = await queueImageSet(ctx, updated, taskId, types);
    return {
      success: true,
      data: await dtoOf(ctx, updated, userId),
      taskId,
      statusUrl: taskStatusUrl(taskId),
      creditsReserved: credits,
    };
  } catch (error) {
    await ctx.db
      .update(personas)
      .set({
        images: row.images,
        status: row.status,
        generationProgress: row.generationProgress,
        generationTaskId: row.generationTaskId,
        generationError: row.generationError,
      })
      .where(eq(personas.id, row.id));
    throw error;
  }
}

/** DELETE /api/personas/{id}: the persona, its generated images (assets and files) and its workspace entries. */
export async function deletePersona(ctx: AppContext, userId: string, id: string): Promise<void> {
  const row = await ownPersona(ctx, userId, id);
  await ctx.db.delete(personas).where(and(eq(personas.id, row.id), eq(personas.userId, userId)));
  for (const type of PERSONA_IMAGE_TYPES) {
    const assetId = row.images[type].assetId;
    if (assetId) await deleteAsset(ctx, userId, assetId).catch(() => undefined);
  }
}

/** A ready image of the persona to start from; 409 while generating, 400 when that image does not exist. */
export function usableImage(row: PersonaRow, type: PersonaImageType): string {
  if (row.status === 'generating' && row.images[type].status !== 'ready') throw conflict(M.stillGenerating);
  const image = row.images[type];
  if (image.status !== 'ready' || !image.url) throw badRequest(M.imageNotReady, { imageType: type });
  return image.url;
}

export const productsOf = (a?: string[], b?: string[]) => {
  const list = [...new Set([...(a ?? []), ...(b ?? [])])];
  if (list.length > PERSONA_LIMITS.maxProductImages) {
    throw badRequest(M.tooManyProductImages(PERSONA_LIMITS.maxProductImages));
  }
  return list;
};

/** Who the persona is, for the engine prompt. */
export const personaLine = (row: PersonaRow) =>
  `The person is ${row.name}, ${[row.nationality, row.personality.toLowerCase()].filter(Boolean).join(', ')}: ${row.description}`.slice(
    0,
    1200,
  );

/**
 * POST /api/personas/{id}/image: a new image of the persona from a prompt, conditioned on its face_only
 * image (and up to 2 product images), saved as an asset with persona_id. Answers the image when it is
 * done within the wait, else the task to poll.
 */
export async function generatePersonaImage(
  ctx: AppContext,
  userId: string,
  id: string,
  body: z.infer<typeof personaImageBody>,
): Promise<PersonaImageReply> {
  const row = await visiblePersona(ctx, userId, id);
  const face = usableImage(row, BASE_IMAGE_TYPE);
  const products = productsOf(body.productImages, body.product_images);
  const request = generateImageBody.parse({
    prompt: `${body.prompt}\n${personaLine(row)} Keep the same face as the reference face image.${
      products.length > 0 ? ' Include the product from the product images.' : ''
    }`,
    model: PERSONA_IMAGE.model,
    size: PERSONA_IMAGE.size,
    quality: PERSONA_IMAGE.quality,
    aspectRatio: body.aspectRatio,
    numberOfImages: 1,
    referenceImages: [face, ...products],
    persona_id: row.id,
  });
  const started = await startImageGeneration(ctx, userId, request);
  const task = await finishedTask(ctx, userId, started.task.id, MESSAGES.generation.imageFailed);
  const media = task.status === 'completed' ? generatedMediaOf(task) : [];
  const accepted = taskAcceptedOf(task, started);
  return {
    success: true,
    data: {
      status: media.length > 0 ? 'completed' : 'processing',
      taskId: task.id,
      statusUrl: accepted.statusUrl,
      media,
      url: media[0]?.url ?? null,
    },
    creditsUsed: started.credits,
  };
}

/** Summaries of personas for the workspace (own or public; others are left out). */
export async function personaSummaries(
  ctx: AppContext,
  userId: string,
  ids: readonly string[],
): Promise<Map<string, Persona>> {
  const valid = ids.filter((id) => UUID.test(id));
  if (valid.length === 0) return new Map();
  const rows = await ctx.db
    .select()
    .from(personas)
    .where(and(inArray(personas.id, valid), or(eq(personas.userId, userId), eq(personas.isPublic, true))));
  const stats = await personaStats(
    ctx,
    rows.map((r) => r.id),
  );
  return new Map(rows.map((r) => [r.id, toPersonaDto(r, userId, stats.get(r.id))]));
}
