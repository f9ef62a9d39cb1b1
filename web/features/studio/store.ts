// The Creator tab's state: the prompt, every parameter of each mode with the spec's defaults, the image and
// video inputs, and one generation (initial → loading → success | error) per mode. Kept in a store rather than
// in components so switching modes or views keeps the form and a running video poll keeps reporting.
import { create } from 'zustand';
import {
  AUDIO_DURATIONS,
  AUDIO_GENRES,
  AUDIO_MOODS,
  IMAGE_DEFAULTS,
  VIDEO_DEFAULTS,
} from '../../../common/api/generation.constants.ts';
import type { GenerationErrorKind, GenerationPhase } from '../../../common/rules/generation-state.ts';
import type { StudioMode } from '../../../common/rules/studio.ts';
import { pickTyped } from '../../ui/drafts.tsx';

export interface ImageParams {
  model: string;
  size: string;
  style: string;
  variations: number;
  autoUpscale: boolean;
  aspectRatio: string;
  negativePrompt: string;
  quality: string;
  /** '' = follow `size`; '1K' | '2K' | '4K' set the long side (Imagen's sampleImageSize, spec default 2K). */
  sampleImageSize: string;
  personGeneration: string;
  numberOfImages: number;
}

export interface VideoParams {
  model: string;
  duration: number;
  quality: string;
  style: string;
  creativity: number;
  aspectRatio: string;
  negativePrompt: string;
  personGeneration: string;
  generateAudio: boolean;
}

export interface AudioParams {
  type: 'music' | 'voice';
  duration: number;
  genre: string;
  mood: string;
  instruments: string;
  voice: string;
}

export const IMAGE_STYLES = [
  'photorealistic',
  'cinematic',
  'anime',
  'digital-art',
  '3d-render',
  'watercolor',
  'oil-painting',
  'sketch',
  'minimalist',
] as const;
export const QUALITIES = ['standard', 'hd'] as const;
export const PERSON_GENERATION = ['allow_adult', 'allow_all', 'dont_allow'] as const;
export const SAMPLE_IMAGE_SIZES = ['1K', '2K', '4K'] as const;
export const VIDEO_DURATIONS = [5, 8, 10, 15] as const;
export const VOICES = ['female', 'male', 'narrator', 'whisper'] as const;

const defaultImageParams = (): ImageParams => ({
  model: IMAGE_DEFAULTS.model,
  size: IMAGE_DEFAULTS.size,
  style: '',
  variations: IMAGE_DEFAULTS.variations,
  autoUpscale: false,
  aspectRatio: IMAGE_DEFAULTS.aspectRatio,
  negativePrompt: '',
  quality: 'standard',
  sampleImageSize: '',
  personGeneration: VIDEO_DEFAULTS.personGeneration,
  numberOfImages: IMAGE_DEFAULTS.numberOfImages,
});

const defaultVideoParams = (): VideoParams => ({
  model: VIDEO_DEFAULTS.model,
  duration: VIDEO_DEFAULTS.duration,
  quality: 'standard',
  style: '',
  creativity: VIDEO_DEFAULTS.creativity,
  aspectRatio: VIDEO_DEFAULTS.aspectRatio,
  negativePrompt: '',
  personGeneration: VIDEO_DEFAULTS.personGeneration,
  generateAudio: true,
});

const defaultAudioParams = (): AudioParams => ({
  type: 'music',
  duration: AUDIO_DURATIONS[1],
  genre: AUDIO_GENRES[2],
  mood: AUDIO_MOODS[0],
  instruments: '',
  voice: VOICES[0],
});

/** One image or video given to a generation: uploading, ready (with its media URL) or failed. */
export interface MediaInput {
  key: string;
  name: string;
  kind: 'image' | 'video';
  status: 'uploading' | 'ready' | 'error';
  url: string | null;
  /** Shown while uploading (an object URL of the local file) and afterwards when there is no thumbnail. */
  previewUrl: string | null;
  progress: number;
  error: string | null;
}

export type InputSlot = 'imageReferences' | 'imageCharacters' | 'videoReferences' | 'videoCharacters' | 'videoInput';

export interface GeneratedItem {
  id: string | null;
  url: string;
  thumbnailUrl: string | null;
  type: 'image' | 'video' | 'audio';
  width?: number | null;
  height?: number | null;
  duration?: number | null;
  /** The engine that made it (metadata.engine): 'local' or a vendor. */
  engine?: string | null;
}

export type GenerationResult =
  | { kind: 'images'; items: GeneratedItem[] }
  | { kind: 'video'; item: GeneratedItem }
  | { kind: 'audio'; item: GeneratedItem }
  | { kind: 'generic'; data: unknown };

export interface GenerationError {
  kind: GenerationErrorKind;
  message: string;
  status?: number;
  code?: string | null;
  /** Our own balance fell short (a 402 from the credit ledger): the credits missing, when the reply says. */
  shortfall?: number;
}

export interface Generation {
  phase: GenerationPhase;
  result: GenerationResult | null;
  error: GenerationError | null;
  /** Set while a task is polled: percentage (0–100) and seconds left. */
  progress: { value: number; secondsLeft: number } | null;
  /** How many images are being made (for the loading placeholders). */
  expected: number;
  /** The model asked for (the viewer names the engine that serves it while the result is made). */
  model: string | null;
  /** The width / height asked for, so the placeholder has the result's shape. */
  aspect: number | null;
}

export const initialGeneration = (): Generation => ({
  phase: 'initial',
  result: null,
  error: null,
  progress: null,
  expected: 0,
  model: null,
  aspect: null,
});

/** What the browser keeps of the form between visits (web/ui/drafts.tsx): the prompt and every setting. */
export interface StudioDraft {
  prompt: string;
  image: ImageParams;
  video: VideoParams;
  audio: AudioParams;
}

export const emptyStudioDraft = (): StudioDraft => ({
  prompt: '',
  image: defaultImageParams(),
  video: defaultVideoParams(),
  audio: defaultAudioParams(),
});

export const isStudioDraftEmpty = (draft: StudioDraft) =>
  draft.prompt.trim() === '' && JSON.stringify({ ...draft, prompt: '' }) === JSON.stringify(emptyStudioDraft());

/** A stored draft read back field by field; a field of the wrong type keeps its default. */
export function parseStudioDraft(raw: unknown): StudioDraft | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const stored = raw as Record<string, unknown>;
  const empty = emptyStudioDraft();
  const audio = pickTyped(empty.audio, stored.audio);
  return {
    prompt: typeof stored.prompt === 'string' ? stored.prompt : '',
    image: pickTyped(empty.image, stored.image),
    video: pickTyped(empty.video, stored.video),
    audio: audio.type === 'music' || audio.type === 'voice' ? audio : { ...audio, type: empty.audio.type },
  };
}

interface StudioState {
  prompt: string;
  image: ImageParams;
  video: VideoParams;
  audio: AudioParams;
  inputs: Record<InputSlot, MediaInput[]>;
  generations: Record<StudioMode, Generation>;
  /** The asset the viewer shows, picked from the history strip; null shows the newest result. */
  viewing: string | null;
  setViewing: (id: string | null) => void;
  setPrompt: (prompt: string) => void;
  setImage: (patch: Partial<ImageParams>) => void;
  setVideo: (patch: Partial<VideoParams>) => void;
  setAudio: (patch: Partial<AudioParams>) => void;
  addInputs: (slot: InputSlot, inputs: MediaInput[]) => void;
  updateInput: (slot: InputSlot, key: string, patch: Partial<MediaInput>) => void;
  removeInput: (slot: InputSlot, key: string) => void;
  setGeneration: (mode: StudioMode, patch: Partial<Generation>) => void;
  resetGeneration: (mode: StudioMode) => void;
  /** Puts a kept draft (or, with none, the empty form) into the prompt and settings. */
  setDraft: (draft: StudioDraft) => void;
  /** Everything back to the defaults (another user signed in). */
  resetAll: () => void;
}

/** Slots that hold a single item (a new one replaces the old). */
export const SINGLE_SLOTS: readonly InputSlot[] = ['videoInput'];

function revoke(input: MediaInput) {
  if (input.previewUrl?.startsWith('blob:')) URL.revokeObjectURL(input.previewUrl);
}

const initialState = () => ({
  ...emptyStudioDraft(),
  inputs: {
    imageReferences: [],
    imageCharacters: [],
    videoReferences: [],
    videoCharacters: [],
    videoInput: [],
  } as Record<InputSlot, MediaInput[]>,
  generations: { image: initialGeneration(), video: initialGeneration(), audio: initialGeneration() },
  viewing: null as string | null,
});

export const useStudio = create<StudioState>((set) => ({
  ...initialState(),
  setViewing: (viewing) => set({ viewing }),
  setPrompt: (prompt) => set({ prompt }),
  setImage: (patch) => set((s) => ({ image: { ...s.image, ...patch } })),
  setVideo: (patch) => set((s) => ({ video: { ...s.video, ...patch } })),
  setAudio: (patch) => set((s) => ({ audio: { ...s.audio, ...patch } })),
  addInputs: (slot, added) =>
    set((s) => {
      if (SINGLE_SLOTS.includes(slot)) {
        s.inputs[slot].forEach(revoke);
        return { inputs: { ...s.inputs, [slot]: added.slice(-1) } };
      }
      return { inputs: { ...s.inputs, [slot]: [...s.inputs[slot], ...added] } };
    }),
  updateInput: (slot, key, patch) =>
    set((s) => ({
      inputs: {
        ...s.inputs,
        [slot]: s.inputs[slot].map((input) => (input.key === key ? { ...input, ...patch } : input)),
      },
    })),
  removeInput: (slot, key) =>
    set((s) => {
      s.inputs[slot].filter((input) => input.key === key).forEach(revoke);
      return { inputs: { ...s.inputs, [slot]: s.inputs[slot].filter((input) => input.key !== key) } };
    }),
  setGeneration: (mode, patch) =>
    set((s) => ({ generations: { ...s.generations, [mode]: { ...s.generations[mode], ...patch } } })),
  resetGeneration: (mode) => set((s) => ({ generations: { ...s.generations, [mode]: initialGeneration() } })),
  setDraft: (draft) => set({ prompt: draft.prompt, image: draft.image, video: draft.video, audio: draft.audio }),
  resetAll: () =>
    set((s) => {
      Object.values(s.inputs).flat().forEach(revoke);
      return initialState();
    }),
}));

/** The ready media URLs of a slot, in order. */
export function readyUrls(inputs: readonly MediaInput[]): string[] {
  return inputs.flatMap((input) => (input.status === 'ready' && input.url ? [input.url] : []));
}
