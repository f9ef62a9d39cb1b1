// Pure rules of the persona screens: the Build Your Persona form's checks and request body, the gallery
// order, the avatar and the outcome of a creation run.
import type { CreatePersonaBody, Persona, PersonaImage } from '../../../common/api/personas.ts';
import { MESSAGES } from '../../../common/messages.ts';
import {
  DEFAULT_LANGUAGE,
  DEFAULT_LICENSE_TYPE,
  DEFAULT_PERSONALITY,
  LANGUAGES,
  LICENSE_TYPES,
  type LicenseType,
  MAX_LICENSE_PRICE_EUROS,
  normaliseTags,
  PERSONA_LIMITS,
  PERSONALITY_OPTIONS,
  type PersonaImageType,
  type Personality,
} from '../../../common/rules/personas.ts';
import { uploadKindOf } from '../../api/upload-rules.ts';
import { pickTyped } from '../../ui/drafts.tsx';

/** One image input of a persona form (character or product image). */
export interface ImageInput {
  key: string;
  name: string;
  /** Local preview while uploading, the stored URL afterwards. */
  previewUrl: string;
  /** The stored file's URL once uploaded. */
  url: string | null;
  status: 'uploading' | 'done' | 'error';
  error?: string;
}

export interface PersonaDraft {
  name: string;
  description: string;
  personality: Personality;
  targetAudience: string;
  /** '' = not chosen. */
  nationality: string;
  language: string;
  tags: string[];
  licenseType: LicenseType;
  /** As typed, in euros. */
  licensePrice: string;
  isPublic: boolean;
}

export const EMPTY_DRAFT: PersonaDraft = {
  name: '',
  description: '',
  personality: DEFAULT_PERSONALITY,
  targetAudience: '',
  nationality: '',
  language: DEFAULT_LANGUAGE,
  tags: [],
  licenseType: DEFAULT_LICENSE_TYPE,
  licensePrice: '',
  isPublic: false,
};

export const isDraftEmpty = (draft: PersonaDraft) => JSON.stringify(draft) === JSON.stringify(EMPTY_DRAFT);

/** A draft kept in the browser, read back field by field: a wrong type or an unknown choice keeps the default. */
export function parsePersonaDraft(raw: unknown): PersonaDraft {
  const draft = pickTyped(EMPTY_DRAFT, raw);
  const known = <T extends string>(list: readonly T[], value: string, fallback: T): T =>
    list.includes(value as T) ? (value as T) : fallback;
  return {
    ...draft,
    personality: known(PERSONALITY_OPTIONS, draft.personality, EMPTY_DRAFT.personality),
    language: known(LANGUAGES, draft.language, EMPTY_DRAFT.language),
    licenseType: known(LICENSE_TYPES, draft.licenseType, EMPTY_DRAFT.licenseType),
  };
}

/** A typed euro amount ('12,5' or '12.50'), or null when it is not a valid price. */
export function parseEuros(text: string): number | null {
  const cleaned = text.trim().replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  const value = Number(cleaned);
  return Number.isFinite(value) && value <= MAX_LICENSE_PRICE_EUROS ? value : null;
}

export type DraftCheck = { ok: true } | { ok: false; field: 'required' | 'price'; message: string };

/** Spec 5: name and description are required; a paid license needs a valid price. */
export function checkDraft(draft: PersonaDraft): DraftCheck {
  if (!draft.name.trim() || !draft.description.trim()) {
    return { ok: false, field: 'required', message: MESSAGES.personas.requiredFields };
  }
  if (draft.licenseType !== 'free' && parseEuros(draft.licensePrice) === null) {
    return { ok: false, field: 'price', message: MESSAGES.personas.licensePriceInvalid };
  }
  return { ok: true };
}

/** The POST /api/personas body. `isPublic` is sent only when the user may make public personas. */
export function draftBody(draft: PersonaDraft, characterImages: string[], mayPublish: boolean): CreatePersonaBody {
  return {
    name: draft.name.trim(),
    description: draft.description.trim(),
    personality: draft.personality,
    target_audience: draft.targetAudience.trim() || null,
    nationality: (draft.nationality || null) as CreatePersonaBody['nationality'],
    language: draft.language as CreatePersonaBody['language'],
    custom_images: characterImages.slice(0, PERSONA_LIMITS.maxCharacterImages),
    tags: normaliseTags(draft.tags).slice(0, PERSONA_LIMITS.maxTags),
    isPublic: mayPublish && draft.isPublic,
    license_type: draft.licenseType,
    license_price: draft.licenseType === 'free' ? 0 : (parseEuros(draft.licensePrice) ?? 0),
  };
}

/** The gallery shows the five images in the spec's order (3, ai_generated_images). */
const GALLERY_ORDER: readonly PersonaImageType[] = ['portrait', 'full_body', 'face_only', 'action_shot', 'environment'];

/** One entry per image type, in gallery order; a type the server did not list is pending. */
export function galleryImages(persona: Pick<Persona, 'images'>): PersonaImage[] {
  return GALLERY_ORDER.map(
    (type) =>
      persona.images.find((image) => image.type === type) ?? {
        type,
        status: 'pending',
        url: null,
        thumbnail_url: null,
        asset_id: null,
        error: null,
      },
  );
}

/** The card picture: the avatar, else face_only, else portrait (spec: avatar face_only or portrait). */
export function personaAvatar(persona: Pick<Persona, 'avatar' | 'ai_generated_images'>): string | null {
  return persona.avatar ?? persona.ai_generated_images.face_only ?? persona.ai_generated_images.portrait ?? null;
}

export type CreationOutcome =
  | { kind: 'generating'; progress: number }
  | { kind: 'ready' }
  /** Ready, but some images are placeholders (regenerate them later). */
  | { kind: 'partial'; placeholders: PersonaImageType[] }
  | { kind: 'failed'; message: string };

/** Where a persona's image generation stands. */
export function creationOutcome(
  persona: Pick<Persona, 'status' | 'generation_progress' | 'generation_error' | 'images'>,
): CreationOutcome {
  if (persona.status === 'generating') {
    return { kind: 'generating', progress: Math.min(100, Math.max(0, persona.generation_progress)) };
  }
  if (persona.status === 'failed') {
    return { kind: 'failed', message: persona.generation_error ?? MESSAGES.personas.noImagesGenerated };
  }
  const placeholders = galleryImages(persona)
    .filter((image) => image.status === 'placeholder')
    .map((image) => image.type);
  return placeholders.length > 0 ? { kind: 'partial', placeholders } : { kind: 'ready' };
}

/**
 * Which of the picked files to upload: only images (spec 5, "Dropped files in the persona builder must be
 * images"), and no more than the slots still free.
 */
export function splitImageFiles<T extends { type?: string; name?: string }>(
  files: readonly T[],
  free: number,
): { accepted: T[]; notImages: number; overLimit: number } {
  const images = files.filter((file) => uploadKindOf(file) === 'image');
  const room = Math.max(0, free);
  return {
    accepted: images.slice(0, room),
    notImages: files.length - images.length,
    overLimit: Math.max(0, images.length - room),
  };
}

/** The stored URLs of the finished uploads, in order. */
export function uploadedUrls(items: readonly ImageInput[]): string[] {
  return items.flatMap((item) => (item.status === 'done' && item.url ? [item.url] : []));
}
