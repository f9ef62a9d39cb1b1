import sharp from 'sharp';
import { UPLOAD_STORAGE_CEILINGS_MB } from '../../../common/api/generation.constants.ts';
import { SEQUENCE_LIMITS } from '../../../common/rules/sequences.ts';
import type { AppContext } from '../../context.ts';
import { type ScriptScene, settingOf, withoutOtherTimes } from '../../engines/local/script-scenes.ts';
import type { MediaBuffer, TextEngine } from '../../engines/types.ts';
import { ownedMediaObject, resolveMediaInput, storedKeyOf } from '../../platform/media/inputs.ts';
import { type ImageFacts, measureImage } from './image-facts.ts';

// The movie agent's images ("frames"): read from the user's stored media, measured from their pixels,
// looked at by the vendor's vision model when a vendor LLM serves the text model, and written into the
// video prompt of the shot they start.

export interface Frame {
  facts: ImageFacts;
  /** A small JPEG of the image for the vision model. */
  preview: MediaBuffer;
  /** The vision model's sentence about the image (vendor LLMs only). */
  seen?: string;
}

const MB = 1024 * 1024;
const PREVIEW_PX = 768;
/** At most this many distinct images are shown to a vision model in one movie-agent call. */
const MAX_VISION_IMAGES = 24;
const VISION_CONCURRENCY = 4;
const SEEN_MAX_CHARS = 400;

/**
 * Each image's frame. Only the user's own stored media is read (through the media store, which answers
 * 404 for another user's or an unknown object, before any credit is taken); other URLs and stored media
 * that are not images get none. The same image used twice is read once.
 */
export async function readFrames(
  ctx: AppContext,
  userId: string,
  images: ReadonlyArray<{ imageUrl?: string }>,
): Promise<Array<Frame | null>> {
  const byKey = new Map<string, Frame | null>();
  const frames: Array<Frame | null> = [];
  for (const image of images) {
    const key = image.imageUrl ? storedKeyOf(ctx.config, image.imageUrl) : null;
    if (!key || !image.imageUrl) {
      frames.push(null);
      continue;
    }
    if (!byKey.has(key)) {
      const object = await ownedMediaObject(ctx, userId, key);
      let frame: Frame | null = null;
      if (object.contentType.startsWith('image/')) {
        const media = await resolveMediaInput(ctx, userId, image.imageUrl, {
          maxBytes: UPLOAD_STORAGE_CEILINGS_MB.image * MB,
          allowed: ['image'],
        });
        frame = await frameOf(media.data).catch((error: unknown) => {
          ctx.log.warn({ err: error, key }, 'movie agent could not read an image');
          return null;
        });
      }
      byKey.set(key, frame);
    }
    frames.push(byKey.get(key) ?? null);
  }
  return frames;
}

async function frameOf(data: Buffer): Promise<Frame> {
  const facts = await measureImage(data);
  const preview = await sharp(data, { failOn: 'none' })
    .rotate()
    .resize(PREVIEW_PX, PREVIEW_PX, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 80 })
    .toBuffer();
  return { facts, preview: { data: preview, mimeType: 'image/jpeg' } };
}

/**
 * The vendor's vision model describes each distinct frame in a sentence (up to MAX_VISION_IMAGES, a few at
 * a time). The local engine has no vision: frames keep their measured facts only. A failed look leaves
 * that frame without a sentence; the agent goes on.
 */
export async function lookAtFrames(
  ctx: AppContext,
  engine: TextEngine,
  frames: Array<Frame | null>,
  signal: AbortSignal,
): Promise<void> {
  if (engine.name === 'local') return;
  const distinct = [...new Set(frames.filter((f): f is Frame => f !== null))].slice(0, MAX_VISION_IMAGES);
  for (let i = 0; i < distinct.length; i += VISION_CONCURRENCY) {
    await Promise.all(
      distinct.slice(i, i + VISION_CONCURRENCY).map(async (frame) => {
        try {
          const result = await engine.complete(
            {
              purpose: 'image-description',
              system: 'You describe images for film makers, plainly and precisely.',
              prompt:
                'In one sentence of at most 40 words, describe what this image shows: the subject, the setting, the light, the colours and the composition.',
              images: [frame.preview],
            },
            { signal },
          );
          const seen = result.text.replace(/\s+/g, ' ').trim();
          if (seen) frame.seen = cutAt(seen, SEEN_MAX_CHARS);
        } catch (error) {
          if (signal.aborted) throw error;
          ctx.log.warn({ err: error }, 'movie agent vision call failed');
        }
      }),
    );
  }
}

/** What a frame holds, for a prompt: the vision model's sentence (when there is one) and the measured facts. */
function frameText(frame: Frame): string {
  return frame.seen ? `${frame.seen.replace(/[.!?]$/, '')} (${frame.facts.description})` : frame.facts.description;
}

/** A text cut at a word boundary to at most `max` characters. */
function cutAt(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, Math.max(0, max));
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '');
}

/**
 * One video prompt: the shot's prompt (without phrases naming another time of day than the scene's),
 * the scene's setting when the prompt does not say it, what the frame holds, and the image's own prompt.
 * At most SEQUENCE_LIMITS.videoPromptMaxChars: the shot's prompt is shortened first, so the setting and
 * the frame always fit.
 */
export function composePrompt(
  shotPrompt: string,
  scene: ScriptScene | undefined,
  frame: Frame | null,
  extra: string,
  camera?: { shotType: string; cameraMovement: string },
): string {
  // The script's own words are never filtered out, only added phrases that name another time.
  const base = scene ? withoutOtherTimes(shotPrompt, scene.timeWord, scene.text) : shotPrompt;
  const lower = base.toLowerCase();
  const missing =
    scene &&
    ((scene.timeWord && !lower.includes(scene.timeWord)) ||
      (scene.place && !lower.includes(scene.place.toLowerCase())));
  const setting = scene && missing ? settingOf(scene) : '';
  // The camera the shot's fields name, when the prompt does not already say it.
  const cameraText =
    camera && !lower.includes(camera.cameraMovement.toLowerCase())
      ? `${camera.shotType}, ${camera.cameraMovement}.`
      : '';
  const tail = [
    cameraText,
    setting ? `Setting: ${setting}${scene?.light ? `, ${scene.light}` : ''}.` : '',
    frame ? `The frame: ${frameText(frame)}.` : '',
    // The image's own prompt, as the user wrote it.
    extra ? (/[.!?]$/.test(extra) ? extra : `${extra}.`) : '',
  ].filter(Boolean);
  const max = SEQUENCE_LIMITS.videoPromptMaxChars;
  const tailText = cutAt(tail.join(' '), Math.floor(max / 2));
  const head = cutAt(base.trim().replace(/[\s,]+$/, ''), max - tailText.length - 2);
  return [head.endsWith('.') ? head : `${head}.`, tailText].filter((p) => p && p !== '.').join(' ');
}
