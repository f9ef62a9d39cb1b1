import { and, desc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import {
  CHARACTER_LIMITS,
  CHARACTER_MESSAGES,
  type Character,
  type CharacterGenerateReply,
  type characterBody,
  type characterGenerateBody,
} from '../../../common/api/characters.ts';
import { generateImageBody, generateVideoBody } from '../../../common/api/generation.ts';
import type { AppContext } from '../../context.ts';
import { characters } from '../../db/schema/index.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { generatedMediaOf, QUICK_WAIT_MS, taskFailedError } from '../../platform/jobs/outcome.ts';
import { ownedMediaObject, storedKeyOf } from '../../platform/media/inputs.ts';
import { startImageGeneration, startVideoGeneration } from '../generation/service.ts';
import { taskAcceptedOf } from '../generation/status.ts';

type CharacterInput = z.infer<typeof characterBody>;
type GenerateInput = z.infer<typeof characterGenerateBody>;
type CharacterRow = typeof characters.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toCharacterDto(row: CharacterRow): Character {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    style: row.style,
    personality: row.personality,
    backstory: row.backstory,
    images: row.images,
    imageUrl: row.images[0] ?? '',
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The character's images: at least one, each an image the user stored here (their own media URL). */
async function checkImages(ctx: AppContext, userId: string, input: CharacterInput): Promise<string[]> {
  const images = [...new Set([...(input.imageUrl ? [input.imageUrl] : []), ...(input.images ?? [])])];
  if (images.length === 0) throw badRequest(CHARACTER_MESSAGES.imageRequired);
  if (images.length > CHARACTER_LIMITS.maxImages) {
    throw badRequest(CHARACTER_MESSAGES.tooManyImages(CHARACTER_LIMITS.maxImages));
  }
  for (const url of images) {
    const key = storedKeyOf(ctx.config, url);
    if (!key) throw badRequest(CHARACTER_MESSAGES.imageNotOwn, { url });
    const row = await ownedMediaObject(ctx, userId, key).catch(() => null);
    if (!row || row.userId !== userId || !row.contentType.startsWith('image/')) {
      throw badRequest(CHARACTER_MESSAGES.imageNotOwn, { url });
    }
  }
  return images;
}

async function ownCharacter(ctx: AppContext, userId: string, id: string): Promise<CharacterRow> {
  if (!UUID.test(id)) throw notFound(CHARACTER_MESSAGES.notFound);
  const [row] = await ctx.db
    .select()
    .from(characters)
    .where(and(eq(characters.id, id), eq(characters.userId, userId)));
  if (!row) throw notFound(CHARACTER_MESSAGES.notFound);
  return row;
}

export async function listCharacters(ctx: AppContext, userId: string): Promise<Character[]> {
  const rows = await ctx.db
    .select()
    .from(characters)
    .where(eq(characters.userId, userId))
    .orderBy(desc(characters.createdAt));
  return rows.map(toCharacterDto);
}

export async function createCharacter(ctx: AppContext, userId: string, input: CharacterInput): Promise<Character> {
  const images = await checkImages(ctx, userId, input);
  const now = ctx.clock.now();
  const [row] = await ctx.db
    .insert(characters)
    .values({
      userId,
      name: input.name,
      description: input.description,
      style: input.style,
      personality: input.personality,
      backstory: input.backstory,
      images,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return toCharacterDto(row);
}

export async function updateCharacter(
  ctx: AppContext,
  userId: string,
  id: string,
  input: CharacterInput,
): Promise<Character> {
  await ownCharacter(ctx, userId, id);
  const images = await checkImages(ctx, userId, input);
  const [row] = await ctx.db
    .update(characters)
    .set({
      name: input.name,
      description: input.description,
      style: input.style,
      personality: input.personality,
      backstory: input.backstory,
      images,
      updatedAt: ctx.clock.now(),
    })
    .where(and(eq(characters.id, id), eq(characters.userId, userId)))
    .returning();
  return toCharacterDto(row);
}

export async function deleteCharacter(ctx: AppContext, userId: string, id: string): Promise<void> {
  await ownCharacter(ctx, userId, id);
  await ctx.db.delete(characters).where(and(eq(characters.id, id), eq(characters.userId, userId)));
}

const STYLE_HINTS: Record<string, string> = {
  consistent: 'Keep every character exactly as in the reference images (same face, hair, clothing).',
  same: 'Keep every character exactly as in the reference images (same face, hair, clothing).',
  unique: 'Keep each character recognisable but give them a fresh, unique look for this scene.',
  blend: 'Blend the characters’ reference looks with the style of the scene.',
};

/** The prompt sent to the engine: content prompt, scenario, the characters' descriptions and the style hint. */
function characterPrompt(input: GenerateInput, saved: readonly CharacterRow[]): string {
  const parts = [input.prompt];
  if (input.scenario) parts.push(`Scenario: ${input.scenario}`);
  for (const c of saved) {
    const traits = [c.description, c.style && `style ${c.style}`, c.personality && `personality ${c.personality}`]
      .filter(Boolean)
      .join('; ');
    parts.push(traits ? `Character ${c.name}: ${traits}.` : `Character ${c.name}.`);
  }
  const hint = STYLE_HINTS[input.style];
  if (hint) parts.push(hint);
  return parts.join('\n').slice(0, 4000);
}

/**
 * POST /api/ai/generate: an image (through the image generation path; waits briefly and answers the
 * url) or a video (a task; answers the task id and status url) with the characters' images as references.
 * Nothing is spent when a check fails; 402 when the balance is short.
 */
export async function generateWithCharacters(
  ctx: AppContext,
  userId: string,
  input: GenerateInput,
): Promise<CharacterGenerateReply> {
  const saved =
    input.characterIds.length > 0
      ? await ctx.db
          .select()
          .from(characters)
          .where(
            and(
              eq(characters.userId, userId),
              inArray(
                characters.id,
                input.characterIds.filter((id) => UUID.test(id)),
              ),
            ),
          )
      : [];
  if (saved.length !== input.characterIds.length) throw notFound(CHARACTER_MESSAGES.notFound);
  const images = [...new Set([...input.characterImages, ...saved.map((c) => c.images[0]).filter(Boolean)])];
  if (!input.prompt || images.length === 0) throw badRequest(CHARACTER_MESSAGES.promptAndCharacter);
  const prompt = characterPrompt(input, saved);

  if (input.type === 'text-to-video') {
    const body = generateVideoBody.parse({ prompt, aspectRatio: input.aspectRatio, characterImages: images });
    const started = await startVideoGeneration(ctx, userId, body, { generationType: 'character-video' });
    const accepted = taskAcceptedOf(started.task, started);
    return {
      success: true,
      data: {
        url: null,
        type: 'video',
        status: 'processing',
        taskId: accepted.taskId,
        statusUrl: accepted.statusUrl,
        media: [],
      },
      creditsUsed: started.credits,
    };
  }

  const body = generateImageBody.parse({
    prompt,
    model: input.service === 'stability' ? 'stability' : undefined,
    aspectRatio: input.aspectRatio,
    numberOfImages: input.numImages,
    characterImages: images,
    style: input.style,
  });
  const started = await startImageGeneration(ctx, userId, body);
  const task = await ctx.jobs.waitFor(userId, started.task.id, QUICK_WAIT_MS);
  if (task.status === 'failed') {
    const error = taskFailedError(task);
    throw error instanceof AppError
      ? error
      : new AppError(502, 'generation_failed', CHARACTER_MESSAGES.generationFailed);
  }
  const media = task.status === 'completed' ? generatedMediaOf(task) : [];
  const accepted = taskAcceptedOf(task, started);
  return {
    success: true,
    data: {
      url: media[0]?.url ?? null,
      type: 'image',
      status: media.length > 0 ? 'completed' : 'processing',
      taskId: task.id,
      statusUrl: accepted.statusUrl,
      media,
    },
    creditsUsed: started.credits,
  };
}
