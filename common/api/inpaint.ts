import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { CANVAS_IMAGE_MAX_CHARS, nanobanaReply } from './canvas-images.ts';
import { MAGIC_SELECTOR } from './inpaint.constants.ts';

// POST /api/ai/generate/inpaint (canvas spec 7): the Magic Selector call. Images arrive as a data
// URI, bare base64, one of the user's media URLs or a public URL; the mask is white where the image
// may change and black where it must be kept.

export type MagicMode = (typeof MAGIC_SELECTOR.modes)[number];
export type MagicQuality = (typeof MAGIC_SELECTOR.qualities)[number];

/** The spec's validation message for a mode, prompt and reference (canvas spec 5), or null. */
function magicSelectorProblem(mode: MagicMode, prompt: string, hasReference: boolean): string | null {
  const hasPrompt = prompt.trim().length > 0;
  if (mode === 'inpaint') return hasPrompt ? null : MESSAGES.magicSelector.inpaintPrompt;
  if (mode === 'replace') return hasReference ? null : MESSAGES.magicSelector.replaceReference;
  if (mode === 'style-transfer') return hasReference ? null : MESSAGES.magicSelector.styleReference;
  return hasPrompt ? null : MESSAGES.magicSelector.modePrompt(mode);
}

/** The prompt sent for a mode: style transfer without a prompt uses the spec's default. */
export function magicSelectorPrompt(mode: MagicMode, prompt: string): string {
  const trimmed = prompt.trim();
  if (!trimmed && mode === 'style-transfer') return MAGIC_SELECTOR.stylePrompt;
  return trimmed;
}

const image = (required: string) =>
  z.string().trim().min(1, required).max(CANVAS_IMAGE_MAX_CHARS, MESSAGES.upload.tooLarge(MAGIC_SELECTOR.inputMaxMb));

export const inpaintBody = z
  .object({
    baseImage: image(MESSAGES.magicSelector.baseRequired),
    maskImage: image(MESSAGES.magicSelector.maskRequired),
    mode: z.enum(MAGIC_SELECTOR.modes, { error: MESSAGES.magicSelector.mode }).default('inpaint'),
    quality: z
      .enum(MAGIC_SELECTOR.qualities, { error: MESSAGES.magicSelector.quality })
      .default(MAGIC_SELECTOR.quality),
    prompt: z.string().max(4000).default(''),
    referenceImage: image(MESSAGES.magicSelector.replaceReference).nullish(),
    styleStrength: z
      .number({ error: MESSAGES.magicSelector.styleStrength })
      .min(0, MESSAGES.magicSelector.styleStrength)
      .max(100, MESSAGES.magicSelector.styleStrength)
      .default(MAGIC_SELECTOR.styleStrength),
    personaId: z.uuid().optional(),
  })
  .superRefine((body, issue) => {
    const problem = magicSelectorProblem(body.mode, body.prompt, Boolean(body.referenceImage));
    if (problem) {
      const path =
        problem === MESSAGES.magicSelector.replaceReference || problem === MESSAGES.magicSelector.styleReference
          ? ['referenceImage']
          : ['prompt'];
      issue.addIssue({ code: 'custom', path, message: problem });
    }
  });
export type InpaintBody = z.infer<typeof inpaintBody>;

/** data.url, data.id … of the saved asset (url null while a slow task still runs: poll taskId). */
export const inpaintReply = nanobanaReply;
export type InpaintReply = z.infer<typeof inpaintReply>;
