import type { CompleteTextRequest, EngineCallOptions, TextEngine, TextResult } from '../types.ts';
import { type FilmWriterCharacter, type FilmWriterInput, writeFilmScreenplay } from './film-writer.ts';
import { type PlannedShot, planShots } from './movie-shots.ts';
import { hasPhrase, type PromptReading, readingSummary, readPrompt } from './prompt-words.ts';
import { sentencesOf } from './prose-scenes.ts';
import { type ScriptScene, scriptScenes } from './script-scenes.ts';
import { type LocalAnswer, runOnTextPool, scenesOnTextPool } from './text-pool.ts';

// The local text engine: a deterministic writer. Same input → same output. Purposes:
// - prompt-enhancement: keeps the subject and adds style, lighting, camera and detail phrases chosen
//   from what the prompt says (scene, time of day, mood, styles, colours), plus an analysis;
// - screenplay: the film writer (film-writer.ts): three acts of scenes, dialogue and shots composed from
//   the concept and the characters;
// - movie-agent: splits a script into scenes and writes one cinematic video prompt per shot;
// - campaign-plan: phases, a posting schedule per platform and KPIs from the campaign inputs;
// - anything else: a short structured answer, or an object shaped by the JSON schema when given.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const LIGHTING: Record<PromptReading['time'], string> = {
  dawn: 'soft pastel dawn light with gentle haze',
  day: 'bright natural daylight with soft shadows',
  sunset: 'warm golden-hour backlight with long soft shadows',
  night: 'cool moonlight with glowing practical lights',
};

const CAMERA: Record<PromptReading['scene'], string> = {
  portrait: '85mm portrait lens at eye level, shallow depth of field, creamy bokeh',
  product: 'studio softbox lighting on a seamless backdrop, 100mm macro detail',
  city: 'wide establishing shot, 24mm lens, leading lines',
  sea: 'wide-angle 24mm, low horizon on the lower third, long exposure water',
  forest: '35mm lens, layered depth through the trees, volumetric light rays',
  mountain: 'ultra-wide 16mm, deep focus, rule-of-thirds horizon',
  desert: 'telephoto compression of the dunes, 70-200mm lens',
  space: 'cosmic wide field, deep space astrophotography framing',
  abstract: 'balanced geometric composition, centred symmetry',
  landscape: 'wide-angle 24mm, deep focus, rule-of-thirds horizon',
};

const MOOD_PHRASES: Record<PromptReading['mood'], string> = {
  calm: 'serene, tranquil atmosphere',
  upbeat: 'vibrant, joyful energy',
  epic: 'epic, awe-inspiring scale',
  dark: 'moody, mysterious atmosphere',
};

const STYLE_PHRASES: Record<string, string> = {
  photo: 'photorealistic, shot on a full-frame camera, natural skin and material textures',
  watercolor: 'delicate watercolour washes, visible paper texture',
  neon: 'neon glow, cyberpunk colour palette of magenta and cyan',
  vintage: 'vintage film look, subtle grain, faded highlights',
  minimal: 'minimalist, clean negative space',
  comic: 'bold ink outlines, cel-shaded colours',
  cinematic: 'cinematic colour grading, anamorphic feel',
  realistic: 'photorealistic, lifelike detail',
  artistic: 'painterly artistic interpretation',
  anime: 'anime style, clean line art, vivid cel shading',
  '3d': '3D render, global illumination, physically based materials',
};

const VIDEO_MOTION: Record<PromptReading['scene'], string> = {
  portrait: 'slow push-in on the subject',
  product: 'smooth 360-degree orbit around the product',
  city: 'slow aerial drone glide over the streets',
  sea: 'gentle dolly along the shoreline',
  forest: 'slow tracking shot between the trees',
  mountain: 'sweeping aerial flyover',
  desert: 'slow lateral pan across the dunes',
  space: 'slow drift through the star field',
  abstract: 'fluid morphing motion',
  landscape: 'slow cinematic pan',
};

const DETAIL = 'highly detailed, crisp focus, balanced composition';

function str(value: unknown, fallback = ''): string {
  return typeof value === 'string' && value.trim() ? value.trim() : fallback;
}

function num(value: unknown, fallback: number): number {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : fallback;
}

function list(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((v) => String(v)).filter(Boolean);
  if (typeof value === 'string' && value.trim())
    return value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return [];
}

/** The subject of a prompt: its first clause, without trailing style phrases. */
function subjectOf(prompt: string): string {
  const first = prompt.split(/[,.;\n]/)[0]?.trim() ?? prompt.trim();
  return first || prompt.trim();
}

export interface PromptEnhancement {
  enhancedPrompt: string;
  analysis: {
    subject: string;
    scene: string;
    timeOfDay: string;
    mood: string;
    styles: string[];
    colours: string[];
    keywords: string[];
    addedPhrases: string[];
    wordCount: number;
    mediaType: string;
  };
}

/** Deterministic prompt enhancement: the prompt as written, then the phrases it lacks. */
export function enhancePrompt(prompt: string, context: Record<string, unknown> = {}): PromptEnhancement {
  const original = prompt.trim().replace(/\s+/g, ' ');
  const style = str(context.style);
  const mediaType = str(context.mediaType ?? context.type ?? context.kind, 'image').toLowerCase();
  // Free-text context steers the reading (scene, mood, …) but is not copied into the prompt.
  const reading = readPrompt(`${original} ${style} ${str(context.context)}`);
  const added: string[] = [];
  const lower = original.toLowerCase();
  const add = (phrase: string, unlessAny: string[] = []) => {
    if (!phrase) return;
    if (lower.includes(phrase.toLowerCase())) return;
    if (unlessAny.some((w) => hasPhrase(original, w))) return;
    if (!added.includes(phrase)) added.push(phrase);
  };
  const styleKey = style.toLowerCase();
  if (STYLE_PHRASES[styleKey]) add(STYLE_PHRASES[styleKey]);
  else if (style) add(`${style} style`);
  for (const s of reading.styles) add(STYLE_PHRASES[s] ?? '');
  add(LIGHTING[reading.time], ['lighting', 'lit', 'light']);
  add(CAMERA[reading.scene], ['lens', 'shot on', 'mm']);
  add(MOOD_PHRASES[reading.mood]);
  if (reading.colours.length > 0) {
    const names = reading.colours.map((c) => c.word);
    add(`colour palette of ${names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]}`);
  }
  if (mediaType === 'video') {
    add(VIDEO_MOTION[reading.scene], ['pan', 'dolly', 'tracking', 'zoom', 'orbit']);
    add('smooth 24 fps cinematic motion');
  }
  add(DETAIL, ['detailed']);
  const enhancedPrompt = [original, ...added].join(', ');
  return {
    enhancedPrompt,
    analysis: {
      subject: subjectOf(original),
      ...readingSummary(reading),
      addedPhrases: added,
      wordCount: enhancedPrompt.split(/\s+/).length,
      mediaType,
    },
  };
}

/**
 * The film writer's input from a screenplay request: the film agent sends `concept` and `characters`
 * in the context; a bare request is read as a concept described by the prompt.
 */
function filmInputOf(prompt: string, context: Record<string, unknown>): FilmWriterInput {
  const concept = (context.concept ?? {}) as Partial<FilmWriterInput['concept']>;
  const characters = Array.isArray(context.characters)
    ? (context.characters as unknown[]).map((c, i) =>
        typeof c === 'string' ? { name: c, role: i === 0 ? 'protagonist' : 'supporting' } : (c as FilmWriterCharacter),
      )
    : [];
  return {
    concept: {
      ...concept,
      title: str(concept.title, str(context.title, subjectOf(prompt))),
      description: str(concept.description, prompt),
      genre: str(concept.genre, str(context.genre, 'drama')),
      tone: str(concept.tone, str(context.tone, 'dramatic')),
      targetDuration: num(concept.targetDuration ?? context.targetDuration, 90),
    },
    characters: characters.length > 0 ? characters : [{ name: 'Alex', role: 'protagonist' }],
  };
}

/**
 * Reads a script into scenes (script-scenes.ts: slug lines, or prose by its own cues) and writes one shot
 * per sentence (movie-shots.ts): every prompt is the sentence, its subject, the shot's own type and camera
 * move, and the scene's place, time and light; nothing else.
 */
function writeMovieAgentPlan(prompt: string, context: Record<string, unknown> = {}): Json {
  const script = str(context.script, prompt);
  let subject: string | null = null;
  const scenes = scriptScenes(script).map((scene) => {
    const planned = planShots(scene, subject);
    subject = planned.subject;
    return {
      sceneNumber: scene.sceneNumber,
      heading: scene.heading,
      summary: sentencesOf(scene.text)[0] ?? scene.text.slice(0, 120),
      shots: planned.shots as unknown as Json[],
    };
  });
  const totalSeconds = scenes.reduce(
    (s, sc) => s + (sc.shots as unknown as PlannedShot[]).reduce((a, b) => a + b.durationSeconds, 0),
    0,
  );
  const styles = readPrompt(script).styles;
  return {
    style: styles.join(', ') || 'as written',
    sceneCount: scenes.length,
    totalDurationSeconds: totalSeconds,
    scenes,
  };
}

function audienceLabel(age: number): string {
  if (age >= 18 && age <= 25) return 'Gen Z';
  if (age >= 26 && age <= 35) return 'Millennials';
  if (age >= 36 && age <= 50) return 'Gen X';
  if (age > 50) return 'Boomers';
  return 'Multi-Gen';
}

const PLATFORM_CADENCE: Record<string, { postsPerWeek: number; formats: string[]; bestTime: string }> = {
  instagram: { postsPerWeek: 4, formats: ['reel', 'carousel', 'story'], bestTime: '18:00' },
  tiktok: { postsPerWeek: 5, formats: ['short video'], bestTime: '19:00' },
  youtube: { postsPerWeek: 1, formats: ['long video', 'short'], bestTime: '17:00' },
  facebook: { postsPerWeek: 3, formats: ['video', 'image post'], bestTime: '13:00' },
  twitter: { postsPerWeek: 7, formats: ['thread', 'image post'], bestTime: '09:00' },
};

/** A campaign plan: phases over the duration, a posting schedule per platform, KPIs and reach. */
function writeCampaignPlan(prompt: string, context: Record<string, unknown> = {}): Json {
  const name = str(context.name, subjectOf(prompt));
  const objective = str(context.objective, 'brand awareness');
  const platforms = list(context.platforms)
    .map((p) => p.toLowerCase())
    .filter((p) => PLATFORM_CADENCE[p]);
  const usePlatforms = platforms.length > 0 ? platforms : ['instagram', 'tiktok'];
  const contentTypes = list(context.contentTypes).length > 0 ? list(context.contentTypes) : ['video', 'image'];
  const durationText = str(context.duration, '1 Week');
  const m = /(\d+)\s*(day|week|month)/i.exec(durationText);
  const days = m ? Number(m[1]) * (m[2].toLowerCase() === 'day' ? 1 : m[2].toLowerCase() === 'week' ? 7 : 30) : 7;
  const weeks = Math.max(1, Math.round(days / 7));
  const age = num((context.targetAudience as { age?: unknown } | undefined)?.age ?? context.age, 0);
  const audience = str(context.targetAudience, age ? audienceLabel(age) : 'Multi-Gen');
  const kpis = list(context.kpis).length > 0 ? list(context.kpis) : ['reach', 'engagement rate', 'click-through rate'];
  const budget = str(context.budget, '$1K - $5K');
  const budgetNumbers = budget
    .match(/\d+(?:\.\d+)?\s*[kK]?/g)
    ?.map((b) => (b.toLowerCase().includes('k') ? Number.parseFloat(b) * 1000 : Number.parseFloat(b))) ?? [1000, 5000];
  const avgBudget = budgetNumbers.reduce((s, v) => s + v, 0) / budgetNumbers.length;
  const phaseNames = days <= 7 ? ['Launch', 'Amplify'] : ['Teaser', 'Launch', 'Amplify', 'Retarget'];
  const phases = phaseNames.map((phase, i) => ({
    phase,
    startDay: Math.floor((i * days) / phaseNames.length) + 1,
    endDay: Math.floor(((i + 1) * days) / phaseNames.length),
    focus: ['build curiosity', 'announce and explain', 'scale what performs', 'convert warm audiences'][i % 4],
  }));
  const schedule = usePlatforms.map((platform) => {
    const cadence = PLATFORM_CADENCE[platform];
    const posts = Math.max(1, Math.round(cadence.postsPerWeek * (days / 7)));
    return {
      platform,
      posts,
      bestTime: cadence.bestTime,
      items: Array.from({ length: Math.min(posts, 14) }, (_, i) => ({
        day: Math.min(days, 1 + Math.floor((i * days) / posts)),
        format: cadence.formats[i % cadence.formats.length],
        contentType: contentTypes[i % contentTypes.length],
        idea: `${cadence.formats[i % cadence.formats.length]} about ${name}: ${['behind the scenes', 'product in use', 'creator testimonial', 'how-to', 'countdown', 'user question'][i % 6]}`,
      })),
    };
  });
  const materialsCount = schedule.reduce((s, p) => s + p.posts, 0);
  return {
    title: name,
    objective,
    audience,
    budget,
    duration: durationText,
    durationDays: days,
    weeks,
    platforms: usePlatforms,
    contentTypes,
    phases,
    schedule,
    kpis: kpis.map((k) => ({
      name: k,
      target: /rate/i.test(k)
        ? '3%'
        : /reach|impression/i.test(k)
          ? `${Math.round(avgBudget * 40).toLocaleString('en-US')}`
          : 'baseline +20%',
    })),
    materialsCount,
    estimatedReach: Math.round(avgBudget * 40 * usePlatforms.length),
  };
}

/** A value shaped like the JSON schema, filled from the prompt (strings), sensible numbers and arrays of one. */
function fillSchema(schema: Record<string, unknown>, prompt: string, depth = 0): Json {
  const type = schema.type;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] as Json;
  if (type === 'object' || (schema.properties && typeof schema.properties === 'object')) {
    const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    const out: Record<string, Json> = {};
    for (const [key, sub] of Object.entries(props))
      out[key] = depth > 5 ? null : fillSchemaNamed(key, sub, prompt, depth + 1);
    return out;
  }
  if (type === 'array') {
    const items = (schema.items ?? { type: 'string' }) as Record<string, unknown>;
    return [fillSchema(items, prompt, depth + 1)];
  }
  if (type === 'number' || type === 'integer') return typeof schema.minimum === 'number' ? schema.minimum : 1;
  if (type === 'boolean') return true;
  return prompt;
}

function fillSchemaNamed(key: string, schema: Record<string, unknown>, prompt: string, depth: number): Json {
  if (schema.type === 'string' && !Array.isArray(schema.enum)) {
    const enh = enhancePrompt(prompt);
    if (/enhanced|prompt/i.test(key)) return enh.enhancedPrompt;
    if (/title|name|subject/i.test(key)) return enh.analysis.subject;
    if (/mood/i.test(key)) return enh.analysis.mood;
    if (/scene|setting/i.test(key)) return enh.analysis.scene;
  }
  return fillSchema(schema, prompt, depth);
}

/**
 * An object shaped by the schema's properties, each taken from `facts` by name (snake_case and
 * camelCase alike), else filled; the full analysis rides along unless additionalProperties is false.
 */
function shapeToSchema(schema: Record<string, unknown>, facts: Record<string, Json>, prompt: string): Json {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const out: Record<string, Json> = {};
  for (const [key, sub] of Object.entries(props)) {
    const fact = facts[key.toLowerCase().replace(/[_-]/g, '')];
    out[key] = fact !== undefined ? fact : fillSchemaNamed(key, sub, prompt, 1);
  }
  if (schema.additionalProperties !== false && !('analysis' in out)) out.analysis = facts.analysis;
  return out;
}

/** What the local writer answers a request: run on this thread, or on the text pool's (text-pool.ts). */
export function localAnswer(request: CompleteTextRequest): LocalAnswer {
  const purpose = (request.purpose ?? '').toLowerCase();
  const context = request.context ?? {};
  if (purpose === 'prompt-enhancement' || purpose === 'image-agent' || purpose === 'enhance') {
    const result = enhancePrompt(request.prompt, context);
    const { analysis } = result;
    const facts: Record<string, Json> = {
      enhancedprompt: result.enhancedPrompt,
      prompt: result.enhancedPrompt,
      subject: analysis.subject,
      style: analysis.styles[0] ?? (str(context.style) || null),
      styles: analysis.styles,
      mood: analysis.mood,
      scene: analysis.scene,
      setting: analysis.scene,
      timeofday: analysis.timeOfDay,
      colours: analysis.colours,
      colors: analysis.colours,
      keywords: analysis.keywords,
      additions: analysis.addedPhrases,
      addedphrases: analysis.addedPhrases,
      analysis: analysis as unknown as Json,
    };
    const json = request.jsonSchema
      ? shapeToSchema(request.jsonSchema.schema, facts, request.prompt)
      : (result as unknown as Json);
    return { text: result.enhancedPrompt, json };
  }
  if (purpose === 'screenplay') {
    const json = writeFilmScreenplay(filmInputOf(request.prompt, context)) as unknown as Json;
    return { text: JSON.stringify(json, null, 2), json };
  }
  if (purpose === 'movie-agent') {
    const json = writeMovieAgentPlan(request.prompt, context);
    return { text: JSON.stringify(json, null, 2), json };
  }
  if (purpose === 'campaign-plan') {
    const json = writeCampaignPlan(request.prompt, context);
    return { text: JSON.stringify(json, null, 2), json };
  }
  if (request.jsonSchema) {
    const json = fillSchema(request.jsonSchema.schema, request.prompt);
    return { text: JSON.stringify(json), json };
  }
  const enh = enhancePrompt(request.prompt, context);
  const text = `Here is a refined version of your request: ${enh.enhancedPrompt}. Subject: ${enh.analysis.subject}; mood: ${enh.analysis.mood}; setting: ${enh.analysis.scene}.`;
  return { text };
}

/**
 * Requests this long or longer (prompt and context, in characters) are written on the text pool's worker
 * threads: the writer then takes tens to hundreds of milliseconds (a 50,000-character script: ~150 ms),
 * which would hold every other request of the process. Shorter ones (an image prompt) take well under a
 * millisecond, less than handing them to a thread.
 */
const OFF_THREAD_MIN_CHARS = 4000;

/**
 * A script read into scenes (scriptScenes): on a thread of the text pool when it is long (reading 50,000
 * characters takes ~30 ms), on this one otherwise.
 */
export function readScriptScenes(script: string, signal?: AbortSignal): Promise<ScriptScene[]> {
  if (script.length < OFF_THREAD_MIN_CHARS) return Promise.resolve(scriptScenes(script));
  return scenesOnTextPool(script, signal);
}

/** The screenplay writer works a whole film whatever its input's size: always off this thread. */
const ALWAYS_OFF_THREAD = new Set(['screenplay']);

function answerOffThread(request: CompleteTextRequest, signal: AbortSignal | undefined): Promise<LocalAnswer> {
  const size = request.prompt.length + (request.system?.length ?? 0) + JSON.stringify(request.context ?? {}).length;
  if (size < OFF_THREAD_MIN_CHARS && !ALWAYS_OFF_THREAD.has(request.purpose ?? '')) {
    return Promise.resolve(localAnswer(request));
  }
  // The local writer ignores images; buffers need not cross to the thread.
  const { images: _images, ...plain } = request;
  return runOnTextPool(plain, signal);
}

export class LocalTextEngine implements TextEngine {
  readonly name = 'local';

  async complete(request: CompleteTextRequest, options?: EngineCallOptions): Promise<TextResult> {
    options?.signal?.throwIfAborted();
    const { text, json } = await answerOffThread(request, options?.signal);
    options?.onProgress?.(1, 0);
    return {
      text,
      ...(json !== undefined ? { json } : {}),
      metadata: {
        engine: 'local',
        model: request.model ?? 'local',
        purpose: request.purpose ?? 'general',
        deterministic: true,
      },
    };
  }

  async *stream(request: CompleteTextRequest, options?: EngineCallOptions): AsyncIterable<string> {
    const { text } = await answerOffThread(request, options?.signal);
    // Word groups with their trailing spaces, so joined chunks equal the complete text exactly.
    const chunks = text.match(/\S+\s*/g) ?? [text];
    for (let i = 0; i < chunks.length; i += 4) {
      options?.signal?.throwIfAborted();
      yield chunks.slice(i, i + 4).join('');
    }
  }
}
