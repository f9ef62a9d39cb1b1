import type { FilmAgentInput, FilmAgentReply, FilmScene } from '../../../common/api/film.ts';
import { actPageSplit, estimateRuntimeMinutes, FILM_MESSAGES } from '../../../common/rules/film.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../platform/errors.ts';
import { chargedTextAgent } from '../../platform/metering/text-agents.ts';

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown, fallback = ''): string => (typeof v === 'string' && v.trim() ? v.trim() : fallback);
const num = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

const ACT_TITLES = ['Setup', 'Confrontation', 'Resolution'];

/** The text the content policy reads: everything the user wrote. */
function userText(input: FilmAgentInput): string {
  const { concept, characters } = input;
  return [
    concept.title,
    concept.description,
    concept.theme,
    concept.logline,
    concept.setting?.timeperiod,
    concept.setting?.location,
    concept.setting?.world,
    ...characters.flatMap((c) => [c.name, c.description, c.personality, c.motivation, c.goal, c.conflict, c.backstory]),
  ]
    .filter((s): s is string => typeof s === 'string' && s.length > 0)
    .join('\n');
}

/** Scene elements: the action line, then one line of dialogue for each of up to two characters. */
function elementsOf(description: string, beat: string, names: string[], sceneNumber: number): FilmScene['elements'] {
  const speakers = names.length > 0 ? [names[(sceneNumber - 1) % names.length], names[sceneNumber % names.length]] : [];
  const lines = [
    `We can't turn back now.`,
    `Then we finish what we started.`,
    `Tell me what you saw.`,
    `It changes everything.`,
    `Not like this. Not tonight.`,
    `You knew this would happen.`,
  ];
  const elements: FilmScene['elements'] = [{ type: 'action', text: description }];
  speakers.forEach((name, k) => {
    if (k > 0 && name === speakers[0]) return;
    elements.push({
      type: 'dialogue',
      character: name.toUpperCase(),
      text: lines[(sceneNumber * 2 + k) % lines.length],
    });
  });
  if (beat) elements.push({ type: 'transition', text: 'CUT TO:' });
  return elements;
}

/**
 * POST /api/ai/film-agent: a three-act screenplay from the concept and characters. Free on the local
 * writer; TEXT_AGENTS.creditsPerCall when a vendor LLM writes (refunded on failure).
 */
export async function runFilmAgent(ctx: AppContext, userId: string, input: FilmAgentInput): Promise<FilmAgentReply> {
  ctx.engines.checkPrompt(userText(input));
  return chargedTextAgent(ctx, { userId, agent: 'film-agent', label: 'Film agent' }, () => writeScreenplay(ctx, input));
}

async function writeScreenplay(ctx: AppContext, input: FilmAgentInput): Promise<FilmAgentReply> {
  const { concept, characters } = input;
  const names = characters.map((c) => c.name);
  const { engine } = ctx.engines.text();
  const result = await engine.complete({
    purpose: 'screenplay',
    system:
      'You are a screenwriter. Write a three-act screenplay outline (30/60/30 pages) with scenes and shots. Answer with JSON.',
    prompt: concept.logline?.trim() || concept.description,
    context: {
      title: concept.title,
      genre: concept.genre,
      tone: concept.tone,
      targetDuration: concept.targetDuration,
      characters: names,
    },
  });
  const json = rec(result.json);
  const rawActs = arr(json.acts).map(rec);
  if (rawActs.length === 0) throw new AppError(502, 'film_agent_failed', FILM_MESSAGES.screenplayFailed);
  const pages = actPageSplit(concept.targetDuration);
  const genre = concept.genre;
  const tone = concept.tone;
  let sceneNumber = 0;
  const acts = [0, 1, 2].map((i) => {
    const act = rawActs[i] ?? {};
    const scenes = arr(act.scenes)
      .map(rec)
      .map((s): FilmScene => {
        sceneNumber++;
        const id = `scene-${sceneNumber}`;
        const beat = str(s.beat);
        const description = str(s.summary, beat || `Scene ${sceneNumber}`);
        const rawHeading = str(s.heading);
        const heading = /^(INT\.|EXT\.)/.test(rawHeading) ? rawHeading : `INT. ${rawHeading || 'LOCATION'} - DAY`;
        const shots = arr(s.shots)
          .map(rec)
          .map((shot, k) => {
            const shotType = str(shot.shotType, 'wide shot');
            return {
              id: `${id}-shot-${k + 1}`,
              index: k + 1,
              shotType,
              cameraMovement: str(shot.cameraMovement, 'static'),
              description: `${shotType} — ${beat || description}`,
              prompt: str(shot.prompt, `${shotType}, ${description}, ${tone} ${genre}`),
              duration: num(shot.durationSeconds ?? shot.duration, 5),
            };
          });
        if (shots.length === 0) {
          shots.push({
            id: `${id}-shot-1`,
            index: 1,
            shotType: 'wide shot',
            cameraMovement: 'static',
            description: `wide shot — ${description}`,
            prompt: `wide shot, ${description}, ${tone} ${genre}`,
            duration: 5,
          });
        }
        return {
          id,
          number: sceneNumber,
          heading,
          description,
          elements: elementsOf(description, beat, names, sceneNumber),
          shots,
        };
      });
    return { number: i + 1, title: str(act.name ?? act.title, ACT_TITLES[i]), pages: pages[i], scenes };
  });
  const sceneCount = acts.reduce((n, a) => n + a.scenes.length, 0);
  if (sceneCount === 0) throw new AppError(502, 'film_agent_failed', FILM_MESSAGES.screenplayFailed);
  const shotCount = acts.reduce((n, a) => n + a.scenes.reduce((m, s) => m + s.shots.length, 0), 0);
  return {
    success: true,
    data: {
      screenplay: {
        title: concept.title,
        logline: concept.logline?.trim() || str(json.logline, concept.description),
        acts,
        runtimeMinutes: estimateRuntimeMinutes(acts),
      },
      metadata: {
        generator: 'film-agent',
        engine: str(result.metadata?.engine, engine.name),
        genre,
        tone,
        sceneCount,
        shotCount,
        createdAt: ctx.clock.now().toISOString(),
      },
    },
  };
}
