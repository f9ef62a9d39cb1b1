// What a UGC video needs before it can start: a persona, 1–2 product images and the spoken line.
import { MESSAGES } from '../../../common/messages.ts';
import { PERSONA_LIMITS } from '../../../common/rules/personas.ts';

export function checkUgc(input: { personaId: string; productImages: number; script: string }): string | null {
  if (!input.personaId) return MESSAGES.personas.selectPersonaVideo;
  if (input.productImages < 1) return MESSAGES.personas.productImageRequired;
  if (input.productImages > PERSONA_LIMITS.maxProductImages) {
    return MESSAGES.personas.tooManyProductImages(PERSONA_LIMITS.maxProductImages);
  }
  const script = input.script.trim();
  if (!script) return MESSAGES.personas.ugcScriptRequired;
  if (script.length > PERSONA_LIMITS.ugcScriptMax)
    return MESSAGES.personas.ugcScriptTooLong(PERSONA_LIMITS.ugcScriptMax);
  return null;
}
