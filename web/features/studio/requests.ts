// Builds the generation request of each mode from the studio's state, with the checks made before any credit
// is spent: a prompt, finished uploads, the inputs a video sub-mode needs, and the model's image limit.

import { AUDIO_MODEL, type PriceTable } from '../../../common/api/generation.constants.ts';
import type { GenerateAudioBody, GenerateImageBody, GenerateVideoBody } from '../../../common/api/generation.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { imageLimitError, withQualitySuffix } from '../../../common/rules/generation.ts';
import { imageCount, priceOf } from '../../../common/rules/pricing.ts';
import {
  mergeDualFrameImages,
  type StudioMode,
  type VideoSubMode,
  videoModelInputs,
  videoSubModeOf,
} from '../../../common/rules/studio.ts';
import {
  type AudioParams,
  type ImageParams,
  type InputSlot,
  type MediaInput,
  readyUrls,
  type VideoParams,
} from './store.ts';

interface StudioSnapshot {
  prompt: string;
  image: ImageParams;
  video: VideoParams;
  audio: AudioParams;
  inputs: Record<InputSlot, MediaInput[]>;
}

/** The input slots a mode shows, with their roles; `limitCount` is what the model's image limit counts. */
export interface ModeInputs {
  model: string;
  subMode: VideoSubMode | null;
  slots: InputSlot[];
  limitCount: number;
  limitError: string | null;
}

export function modeInputs(mode: StudioMode, state: StudioSnapshot): ModeInputs {
  const { inputs } = state;
  const count = (slot: InputSlot) => inputs[slot].length;
  if (mode === 'image') {
    const limitCount = count('imageReferences') + count('imageCharacters');
    return {
      model: state.image.model,
      subMode: null,
      slots: ['imageReferences', 'imageCharacters'],
      limitCount,
      limitError: imageLimitError(state.image.model, limitCount),
    };
  }
  if (mode === 'audio') return { model: 'suno-v3.5', subMode: null, slots: [], limitCount: 0, limitError: null };

  const model = state.video.model;
  const subMode = videoSubModeOf(model);
  let slots: InputSlot[];
  let limitCount: number;
  switch (subMode) {
    case 'magicModify':
      slots = ['videoInput', 'videoReferences'];
      limitCount = count('videoReferences');
      break;
    case 'actStudio':
      slots = ['videoCharacters', 'videoInput'];
      limitCount = count('videoCharacters');
      break;
    case 'filmmakerPro':
      slots = ['videoReferences', 'videoCharacters'];
      limitCount = mergeDualFrameImages(
        inputs.videoReferences.map((i) => i.url ?? i.key),
        inputs.videoCharacters.map((i) => i.url ?? i.key),
      ).length;
      break;
    default: {
      const caps = videoModelInputs(model);
      slots = [
        ...(caps.references ? (['videoReferences'] as const) : []),
        ...(caps.characters ? (['videoCharacters'] as const) : []),
      ];
      limitCount = slots.reduce((sum, slot) => sum + count(slot), 0);
    }
  }
  return { model, subMode, slots, limitCount, limitError: imageLimitError(model, limitCount) };
}

export type BuiltRequest =
  | { ok: true; mode: 'image'; body: GenerateImageBody; expected: number }
  | { ok: true; mode: 'video'; body: GenerateVideoBody; expected: number }
  | { ok: true; mode: 'audio'; body: GenerateAudioBody; expected: number }
  /** `i18nKey` for the studio's own checks; `message` is the English text (spec messages where the spec has one). */
  | { ok: false; message: string; i18nKey?: string };

const optional = (value: string) => (value.trim() ? value.trim() : undefined);
const nonEmpty = (list: string[]) => (list.length > 0 ? list : undefined);

/**
 * Credits the current form would reserve (the server's own price rule), from the price list of the
 * engine that will serve the chosen model (`pricesOf`, from the engine catalogue).
 */
export function priceFor(
  mode: StudioMode,
  state: StudioSnapshot,
  pricesOf: (kind: StudioMode, model: string) => PriceTable,
): number {
  if (mode === 'image') return priceOf('image', imageBodyParams(state.image), pricesOf('image', state.image.model));
  if (mode === 'video') {
    const caps = videoModelInputs(state.video.model);
    return priceOf(
      'video',
      { model: state.video.model, generateAudio: caps.audio && state.video.generateAudio },
      pricesOf('video', state.video.model),
    );
  }
  return priceOf('audio', { type: state.audio.type }, pricesOf('audio', AUDIO_MODEL));
}

function imageBodyParams(image: ImageParams) {
  return {
    size: image.size,
    aspectRatio: image.aspectRatio,
    sampleImageSize: image.sampleImageSize || undefined,
    variations: image.variations,
    numberOfImages: image.numberOfImages,
    autoUpscale: image.autoUpscale,
  };
}

export function buildRequest(mode: StudioMode, state: StudioSnapshot): BuiltRequest {
  const prompt = state.prompt.trim();
  if (!prompt) return { ok: false, message: 'Prompt is required', i18nKey: 'studio.checks.promptRequired' };
  const info = modeInputs(mode, state);
  if (info.limitError) return { ok: false, message: info.limitError };
  const used = info.slots.flatMap((slot) => state.inputs[slot]);
  if (used.some((input) => input.status === 'uploading')) {
    return { ok: false, message: 'Wait for the uploads to finish', i18nKey: 'studio.checks.uploadsPending' };
  }
  if (used.some((input) => input.status === 'error')) {
    return { ok: false, message: 'Remove the files that failed to upload', i18nKey: 'studio.checks.uploadsFailed' };
  }

  if (mode === 'image') {
    const { image } = state;
    const body: GenerateImageBody = {
      prompt: withQualitySuffix(prompt),
      model: image.model,
      size: image.size,
      style: optional(image.style),
      variations: image.variations,
      autoUpscale: image.autoUpscale,
      aspectRatio: image.aspectRatio,
      sampleImageSize: image.sampleImageSize || undefined,
      personGeneration: image.personGeneration,
      negativePrompt: optional(image.negativePrompt),
      numberOfImages: image.numberOfImages,
      referenceImages: nonEmpty(readyUrls(state.inputs.imageReferences)),
      characterImages: nonEmpty(readyUrls(state.inputs.imageCharacters)),
      quality: image.quality,
    };
    return { ok: true, mode, body, expected: imageCount(imageBodyParams(image)) };
  }

  if (mode === 'video') {
    const { video } = state;
    const references = readyUrls(state.inputs.videoReferences);
    const characters = readyUrls(state.inputs.videoCharacters);
    const videoInput = readyUrls(state.inputs.videoInput)[0];
    const caps = videoModelInputs(video.model);
    const body: GenerateVideoBody = {
      prompt: withQualitySuffix(prompt),
      original_prompt: prompt,
      model: video.model,
      duration: video.duration,
      quality: video.quality,
      style: optional(video.style),
      creativity: video.creativity,
      aspectRatio: video.aspectRatio,
      negativePrompt: optional(video.negativePrompt),
      personGeneration: video.personGeneration,
      generateAudio: caps.audio ? video.generateAudio : false,
    };
    switch (info.subMode) {
      case 'magicModify':
        if (!videoInput) return { ok: false, message: MESSAGES.generation.videoInputRequired('MagicModify') };
        body.videoUri = videoInput;
        body.referenceImages = nonEmpty(references);
        break;
      case 'actStudio':
        if (characters.length === 0) return { ok: false, message: MESSAGES.generation.characterImageRequired };
        if (!videoInput) return { ok: false, message: MESSAGES.generation.videoInputRequired('ActStudio') };
        body.videoUri = videoInput;
        body.characterImages = characters;
        body.inputImage = characters[0];
        break;
      case 'filmmakerPro': {
        // First-frame references and last-frame characters, merged and de-duplicated.
        body.inputImage = references[0];
        body.lastFrameImage = characters[0];
        body.referenceImages = nonEmpty(mergeDualFrameImages(references, characters));
        break;
      }
      default:
        if (info.slots.includes('videoReferences')) body.referenceImages = nonEmpty(references);
        if (info.slots.includes('videoCharacters')) body.characterImages = nonEmpty(characters);
    }
    return { ok: true, mode, body, expected: 1 };
  }

  const { audio } = state;
  const instruments = audio.instruments
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .slice(0, 10);
  const body: GenerateAudioBody = {
    prompt,
    type: audio.type,
    duration: audio.duration,
    ...(audio.type === 'music'
      ? { genre: audio.genre, mood: audio.mood, instruments: instruments.length > 0 ? instruments : undefined }
      : { voice: audio.voice }),
  };
  return { ok: true, mode, body, expected: 1 };
}
