import {
  DEFAULT_MODEL_IMAGE_LIMIT,
  MODEL_IMAGE_LIMITS,
  QUALITY_SUFFIX,
  QUALITY_SUFFIX_MIN_WORDS,
} from '../api/generation.constants.ts';
import { MESSAGES } from '../messages.ts';

/** The family the image limit is looked up by: 'runway-gen4_aleph' → runway, 'seedream4' → seedream. */
export function modelImageLimit(model: string): { family: string; limit: number } {
  const m = model.toLowerCase();
  if (m.startsWith('seedreamai')) return { family: 'seedreamai', limit: MODEL_IMAGE_LIMITS.seedreamai };
  if (m.startsWith('seedream')) return { family: 'seedream', limit: MODEL_IMAGE_LIMITS.seedream };
  if (m.startsWith('runway')) return { family: 'runway', limit: MODEL_IMAGE_LIMITS.runway };
  return { family: model, limit: DEFAULT_MODEL_IMAGE_LIMIT };
}

/** Null when within the model's limit, else the spec's 'Image limit exceeded…' message. */
export function imageLimitError(model: string, imageCount: number): string | null {
  const { limit } = modelImageLimit(model);
  if (imageCount <= limit) return null;
  return MESSAGES.generation.imageLimitExceeded(model, limit, imageCount, imageCount - limit);
}

/** Prompts under 20 words get the quality suffix (spec 5); longer ones are left as written. */
export function withQualitySuffix(prompt: string): string {
  const trimmed = prompt.trim();
  const words = trimmed.split(/\s+/).filter(Boolean).length;
  if (words >= QUALITY_SUFFIX_MIN_WORDS || trimmed.endsWith(QUALITY_SUFFIX)) return trimmed;
  return `${trimmed}${QUALITY_SUFFIX}`;
}
