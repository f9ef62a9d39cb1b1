// The Film Production Studio's data (canvas spec 3) and the pure steps around it: the wizard defaults, one
// film sequence per screenplay shot, the Veo prompt of a shot, the two-at-a-time queue, the asset metadata,
// and reading a saved wizard back from localStorage without trusting it.
import { type FilmAgentReply, headingLine, headingOfLine } from '../../../common/api/film.ts';
import type { GenerateVideoBody } from '../../../common/api/generation.ts';
import {
  estimatedTimeRemaining,
  FILM_AGE_GROUPS,
  FILM_DEFAULTS,
  FILM_MESSAGES,
  FILM_ROLES,
  FILM_WIZARD_STEPS,
  type FilmSequenceEvent,
  type FilmSequenceState,
  type FilmSequenceStatus,
  type FilmWizardStep,
  filmSequenceReducer,
} from '../../../common/rules/film.ts';

export type Screenplay = FilmAgentReply['data']['screenplay'];
export type FilmRole = (typeof FILM_ROLES)[number];
export type FilmAgeGroup = (typeof FILM_AGE_GROUPS)[number];

export interface FilmConcept {
  title: string;
  description: string;
  genre: string;
  tone: string;
  /** Minutes, 60–180. */
  targetDuration: number;
  theme: string;
  logline: string;
  setting: { timeperiod: string; location: string; world: string };
}

export interface FilmCharacter {
  id: string;
  name: string;
  role: FilmRole;
  demographics: { age: FilmAgeGroup | ''; gender: string; ethnicity: string; occupation: string };
  personality: string;
  motivation: string;
  goal: string;
  conflict: string;
  arc: string;
  relationships: { characterId: string; relationship: string }[];
  voiceStyle: string;
  backstory: string;
}

export interface ProductionSettings {
  resolution: string;
  aspectRatio: string;
  quality: string;
  fps: number;
  colorGrading: string;
  audioMix: string;
  subtitles: boolean;
  closedCaptions: boolean;
}

export interface Cinematography {
  cameraType: string;
  lightingStyle: string;
  colorPalette: string;
}

/** Spec 3 "Generated film sequence", plus what the studio needs to queue, follow, show and save it. */
export interface FilmSequence {
  id: string;
  sceneId: string;
  shotId: string;
  actNumber: number;
  sceneNumber: number;
  shotIndex: number;
  prompt: string;
  status: FilmSequenceStatus;
  /** Seconds. */
  duration: number;
  shotType: string;
  cameraMovement: string;
  veoTaskId: string | null;
  progress: number;
  /** Seconds. */
  estimatedTimeRemaining: number;
  generatedAt: string | null;
  url: string | null;
  error: string | null;
  /** The scene heading and the shot's description, for the lists. */
  heading: string;
  description: string;
  /** The shot's own prompt from the screenplay: tells a regenerated screenplay's shot from the old one. */
  shotPrompt: string;
  /** Waiting for a free slot (at most two shots are generated at a time). */
  queued: boolean;
  /** The asset the server saved the finished video as. */
  assetId: string | null;
  /** The engine that made the video ('local' preview or a vendor), from the status reply. */
  engine?: string | null;
}

export const QUALITY_OPTIONS = ['standard', 'high', 'ultra'] as const;
export const AUDIO_MIX_OPTIONS = ['stereo', 'surround-5.1', 'dolby-atmos'] as const;
export const COLOR_PALETTES = ['natural', 'warm', 'cool', 'monochrome', 'pastel', 'high-contrast'] as const;
/** At most this many shots are being generated at once; the rest wait in the queue. */
const MAX_CONCURRENT_SHOTS = 2;
/** Veo clips run 1–8 seconds. */
const SHOT_SECONDS = { min: 1, max: 8 } as const;
const PROMPT_MAX = 4000;

export const emptyConcept = (): FilmConcept => ({
  title: '',
  description: '',
  genre: FILM_DEFAULTS.genre,
  tone: FILM_DEFAULTS.tone,
  targetDuration: FILM_DEFAULTS.targetDuration,
  theme: '',
  logline: '',
  setting: { timeperiod: '', location: '', world: '' },
});

export const newCharacter = (id: string): FilmCharacter => ({
  id,
  name: '',
  role: FILM_DEFAULTS.role,
  demographics: { age: '', gender: '', ethnicity: '', occupation: '' },
  personality: '',
  motivation: '',
  goal: '',
  conflict: '',
  arc: '',
  relationships: [],
  voiceStyle: '',
  backstory: '',
});

export const defaultProduction = (): ProductionSettings => ({
  resolution: FILM_DEFAULTS.production.resolution,
  aspectRatio: FILM_DEFAULTS.production.aspectRatio,
  quality: 'high',
  fps: FILM_DEFAULTS.production.fps,
  colorGrading: 'cinematic',
  audioMix: 'stereo',
  subtitles: false,
  closedCaptions: false,
});

export const defaultCinematography = (): Cinematography => ({
  cameraType: FILM_DEFAULTS.production.cameraTypes[0],
  lightingStyle: FILM_DEFAULTS.production.lighting[0],
  colorPalette: COLOR_PALETTES[0],
});

/** Characters as the film agent takes them: empty optional fields left out. */
export function charactersForAgent(characters: readonly FilmCharacter[]) {
  const text = (value: string) => value.trim() || undefined;
  return characters.map((c) => ({
    id: c.id,
    name: c.name.trim(),
    role: c.role,
    ageGroup: c.demographics.age || undefined,
    demographics: {
      age: c.demographics.age || undefined,
      gender: text(c.demographics.gender),
      ethnicity: text(c.demographics.ethnicity),
      occupation: text(c.demographics.occupation),
    },
    personality: text(c.personality),
    motivation: text(c.motivation),
    goal: text(c.goal),
    conflict: text(c.conflict),
    arc: text(c.arc),
    relationships: c.relationships.filter((r) => r.characterId && r.relationship.trim()),
    voiceStyle: text(c.voiceStyle),
    backstory: text(c.backstory),
  }));
}

/** The concept as the film agent takes it. */
export function conceptForAgent(concept: FilmConcept) {
  const text = (value: string) => value.trim() || undefined;
  return {
    title: concept.title.trim(),
    description: concept.description.trim(),
    genre: concept.genre,
    tone: concept.tone,
    targetDuration: concept.targetDuration,
    theme: text(concept.theme),
    logline: text(concept.logline),
    setting: {
      timeperiod: text(concept.setting.timeperiod),
      location: text(concept.setting.location),
      world: text(concept.setting.world),
    },
  };
}

type Shot = Screenplay['acts'][number]['scenes'][number]['shots'][number];
type Scene = Screenplay['acts'][number]['scenes'][number];

/** The Veo prompt of one shot: the shot's own prompt, its framing, the scene, and the film's look. */
export function buildShotPrompt(
  shot: Shot,
  scene: Pick<Scene, 'heading'>,
  concept: Pick<FilmConcept, 'genre' | 'tone'>,
  production: Pick<ProductionSettings, 'colorGrading' | 'aspectRatio'>,
  cinematography: Cinematography,
): string {
  const parts = [
    shot.prompt.trim() || shot.description.trim(),
    `${shot.shotType}, ${shot.cameraMovement} camera movement`,
    `Scene: ${headingLine(scene.heading)}`,
    `Cinematography: ${cinematography.cameraType} camera, ${cinematography.lightingStyle} lighting, ${cinematography.colorPalette} color palette, ${production.colorGrading} color grading, ${production.aspectRatio} frame`,
    `${concept.tone} ${concept.genre} film`,
  ];
  const prompt = parts.filter(Boolean).join('. ');
  return prompt.length > PROMPT_MAX ? prompt.slice(0, PROMPT_MAX) : prompt;
}

export function shotSeconds(duration: number): number {
  if (!Number.isFinite(duration)) return 5;
  return Math.min(SHOT_SECONDS.max, Math.max(SHOT_SECONDS.min, Math.round(duration)));
}

/**
 * One ready sequence per screenplay shot. A shot that already has a sequence under way or finished (same
 * scene, shot and screenplay prompt) keeps it, so pressing Generate Sequences again never throws work away.
 */
export function sequencesFromScreenplay(
  screenplay: Screenplay,
  concept: Pick<FilmConcept, 'genre' | 'tone'>,
  production: ProductionSettings,
  cinematography: Cinematography,
  previous: readonly FilmSequence[] = [],
): FilmSequence[] {
  const result: FilmSequence[] = [];
  for (const act of screenplay.acts) {
    for (const scene of act.scenes) {
      for (const shot of scene.shots) {
        const id = `${scene.id}:${shot.id}`;
        const kept = previous.find(
          (s) => s.id === id && s.shotPrompt === shot.prompt && (isActive(s) || s.status === 'completed'),
        );
        if (kept) {
          result.push(kept);
          continue;
        }
        result.push({
          id,
          sceneId: scene.id,
          shotId: shot.id,
          actNumber: act.number,
          sceneNumber: scene.number,
          shotIndex: shot.index,
          prompt: buildShotPrompt(shot, scene, concept, production, cinematography),
          status: 'ready',
          duration: shotSeconds(shot.duration),
          shotType: shot.shotType,
          cameraMovement: shot.cameraMovement,
          veoTaskId: null,
          progress: 0,
          estimatedTimeRemaining: 0,
          generatedAt: null,
          url: null,
          error: null,
          heading: headingLine(scene.heading),
          description: shot.description,
          shotPrompt: shot.prompt,
          queued: false,
          assetId: null,
        });
      }
    }
  }
  return result;
}

/** The body of POST /api/ai/generate/video for one sequence (spec 7; veo-3 with enhancePrompt on). */
export function videoRequestFor(sequence: FilmSequence, production: ProductionSettings): GenerateVideoBody {
  return {
    service: 'veo',
    model: FILM_DEFAULTS.videoModel,
    prompt: sequence.prompt,
    duration: sequence.duration,
    resolution: production.resolution,
    fps: production.fps,
    style: production.colorGrading,
    quality: production.quality,
    aspectRatio: production.aspectRatio,
    enhancePrompt: FILM_DEFAULTS.enhancePrompt,
  };
}

const isActive = (s: FilmSequence) => s.status === 'generating' || s.status === 'processing';

/** Sequences to start now: queued ones in shot order, while fewer than `max` are generating or processing. */
export function sequencesToStart(sequences: readonly FilmSequence[], max = MAX_CONCURRENT_SHOTS): string[] {
  const slots = max - sequences.filter(isActive).length;
  if (slots <= 0) return [];
  return sequences
    .filter((s) => s.queued && (s.status === 'ready' || s.status === 'failed'))
    .slice(0, slots)
    .map((s) => s.id);
}

/** Applies one machine event (common/rules/film.ts) to a sequence, keeping the time estimate and dates in step. */
export function applySequenceEvent(sequence: FilmSequence, event: FilmSequenceEvent, now = new Date()): FilmSequence {
  const before: FilmSequenceState = {
    status: sequence.status,
    progress: sequence.progress,
    taskId: sequence.veoTaskId,
    url: sequence.url,
    error: sequence.error,
  };
  const after = filmSequenceReducer(before, event);
  if (after === before) return sequence;
  const completed = after.status === 'completed';
  return {
    ...sequence,
    status: after.status,
    progress: after.progress,
    veoTaskId: after.taskId,
    url: after.url,
    error: after.error,
    queued: false,
    estimatedTimeRemaining:
      after.status === 'processing' || after.status === 'generating' ? estimatedTimeRemaining(after.progress) : 0,
    generatedAt: completed && sequence.status !== 'completed' ? now.toISOString() : sequence.generatedAt,
    assetId: after.status === 'generating' ? null : sequence.assetId,
  };
}

/** Spec 3 film video metadata written onto a generated shot's asset. */
export function filmAssetMetadata(sequence: FilmSequence, concept: Pick<FilmConcept, 'title' | 'genre'>) {
  return {
    scene_id: sequence.sceneId,
    shot_id: sequence.shotId,
    act_number: sequence.actNumber,
    scene_number: sequence.sceneNumber,
    shot_index: sequence.shotIndex,
    concept_title: concept.title,
    genre: concept.genre,
    duration: sequence.duration,
  };
}

// ---- the saved wizard ----

export interface FilmWizardData {
  step: FilmWizardStep;
  concept: FilmConcept;
  characters: FilmCharacter[];
  screenplay: Screenplay | null;
  production: ProductionSettings;
  cinematography: Cinematography;
  sequences: FilmSequence[];
}

export const emptyWizard = (): FilmWizardData => ({
  step: 'concept',
  concept: emptyConcept(),
  characters: [],
  screenplay: null,
  production: defaultProduction(),
  cinematography: defaultCinematography(),
  sequences: [],
});

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, fallback = '') => (typeof v === 'string' ? v : fallback);
const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const oneOf = <T extends string>(list: readonly T[], v: unknown, fallback: T): T =>
  list.includes(v as T) ? (v as T) : fallback;
const STATUSES: readonly FilmSequenceStatus[] = ['ready', 'generating', 'processing', 'completed', 'failed'];

function readSequence(raw: unknown): FilmSequence | null {
  if (!isRec(raw) || typeof raw.id !== 'string' || typeof raw.shotId !== 'string') return null;
  let status = oneOf(STATUSES, raw.status, 'ready');
  const veoTaskId = typeof raw.veoTaskId === 'string' ? raw.veoTaskId : null;
  let error = typeof raw.error === 'string' ? raw.error : null;
  let queued = raw.queued === true;
  // A request cut off by a reload before the server named its task cannot be followed: a failure the user
  // may retry (not retried by itself, since the cut-off request may already have been charged).
  if (status === 'generating' || (status === 'processing' && !veoTaskId)) {
    status = 'failed';
    error = FILM_MESSAGES.filmSequenceFailed;
    queued = false;
  }
  const url = typeof raw.url === 'string' ? raw.url : null;
  if (status === 'completed' && !url) status = 'ready';
  return {
    id: raw.id,
    sceneId: str(raw.sceneId),
    shotId: raw.shotId,
    actNumber: num(raw.actNumber, 1),
    sceneNumber: num(raw.sceneNumber, 1),
    shotIndex: num(raw.shotIndex, 1),
    prompt: str(raw.prompt),
    status,
    duration: shotSeconds(num(raw.duration, 5)),
    shotType: str(raw.shotType),
    cameraMovement: str(raw.cameraMovement),
    veoTaskId,
    progress: num(raw.progress, 0),
    estimatedTimeRemaining: num(raw.estimatedTimeRemaining, 0),
    generatedAt: typeof raw.generatedAt === 'string' ? raw.generatedAt : null,
    url,
    error,
    heading: str(raw.heading),
    description: str(raw.description),
    shotPrompt: str(raw.shotPrompt),
    queued: queued && (status === 'ready' || status === 'failed'),
    assetId: typeof raw.assetId === 'string' ? raw.assetId : null,
    engine: typeof raw.engine === 'string' ? raw.engine : null,
  };
}

function readScreenplay(raw: unknown): Screenplay | null {
  if (!isRec(raw) || !Array.isArray(raw.acts)) return null;
  const ok = raw.acts.every(
    (act) =>
      isRec(act) &&
      Array.isArray(act.scenes) &&
      act.scenes.every((scene) => isRec(scene) && Array.isArray(scene.elements) && Array.isArray(scene.shots)),
  );
  if (!ok) return null;
  // Screenplays saved before headings were objects kept them as one slug line.
  for (const act of raw.acts as Array<{ scenes: Array<Record<string, unknown>> }>) {
    for (const scene of act.scenes) {
      if (typeof scene.heading === 'string') scene.heading = headingOfLine(scene.heading);
    }
  }
  return raw as unknown as Screenplay;
}

function readCharacter(raw: unknown): FilmCharacter | null {
  if (!isRec(raw) || typeof raw.id !== 'string') return null;
  const base = newCharacter(raw.id);
  const demo = isRec(raw.demographics) ? raw.demographics : {};
  return {
    ...base,
    name: str(raw.name),
    role: oneOf(FILM_ROLES, raw.role, base.role),
    demographics: {
      age: oneOf<FilmAgeGroup | ''>(['', ...FILM_AGE_GROUPS], demo.age, ''),
      gender: str(demo.gender),
      ethnicity: str(demo.ethnicity),
      occupation: str(demo.occupation),
    },
    personality: str(raw.personality),
    motivation: str(raw.motivation),
    goal: str(raw.goal),
    conflict: str(raw.conflict),
    arc: str(raw.arc),
    relationships: Array.isArray(raw.relationships)
      ? raw.relationships
          .filter(isRec)
          .map((r) => ({ characterId: str(r.characterId), relationship: str(r.relationship) }))
      : [],
    voiceStyle: str(raw.voiceStyle),
    backstory: str(raw.backstory),
  };
}

/** A saved wizard read back: anything missing or malformed takes its default. */
export function parseSavedWizard(text: string | null): FilmWizardData {
  const empty = emptyWizard();
  if (!text) return empty;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return empty;
  }
  if (!isRec(raw)) return empty;
  const concept = isRec(raw.concept) ? raw.concept : {};
  const setting = isRec(concept.setting) ? concept.setting : {};
  const production = isRec(raw.production) ? raw.production : {};
  const cine = isRec(raw.cinematography) ? raw.cinematography : {};
  return {
    step: oneOf(FILM_WIZARD_STEPS, raw.step, 'concept'),
    concept: {
      title: str(concept.title),
      description: str(concept.description),
      genre: str(concept.genre, empty.concept.genre),
      tone: str(concept.tone, empty.concept.tone),
      targetDuration: num(concept.targetDuration, empty.concept.targetDuration),
      theme: str(concept.theme),
      logline: str(concept.logline),
      setting: { timeperiod: str(setting.timeperiod), location: str(setting.location), world: str(setting.world) },
    },
    characters: (Array.isArray(raw.characters) ? raw.characters : []).map(readCharacter).filter((c) => c !== null),
    screenplay: readScreenplay(raw.screenplay),
    production: {
      resolution: str(production.resolution, empty.production.resolution),
      aspectRatio: str(production.aspectRatio, empty.production.aspectRatio),
      quality: str(production.quality, empty.production.quality),
      fps: num(production.fps, empty.production.fps),
      colorGrading: str(production.colorGrading, empty.production.colorGrading),
      audioMix: str(production.audioMix, empty.production.audioMix),
      subtitles: production.subtitles === true,
      closedCaptions: production.closedCaptions === true,
    },
    cinematography: {
      cameraType: str(cine.cameraType, empty.cinematography.cameraType),
      lightingStyle: str(cine.lightingStyle, empty.cinematography.lightingStyle),
      colorPalette: str(cine.colorPalette, empty.cinematography.colorPalette),
    },
    sequences: (Array.isArray(raw.sequences) ? raw.sequences : []).map(readSequence).filter((s) => s !== null),
  };
}
