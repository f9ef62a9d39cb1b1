import { z } from 'zod';
import {
  type FilmAgentInput,
  type FilmAgentReply,
  type FilmElementFormatting,
  type FilmElementType,
  type FilmScene,
  type FilmScreenplayDraft,
  filmScreenplayDraft,
} from '../../../common/api/film.ts';
import { actPageSplit, FILM_MESSAGES } from '../../../common/rules/film.ts';
import type { AppContext } from '../../context.ts';
import type { TextEngine, TextResult } from '../../engines/types.ts';
import { AppError } from '../../platform/errors.ts';
import { chargedTextAgent } from '../../platform/metering/text-agents.ts';

// The film agent: the configured text engine writes the screenplay (a vendor LLM, or the local film writer
// in server/engines/local/film-writer.ts), the answer is checked against filmScreenplayDraft, and the
// service adds what is bookkeeping rather than writing: ids, numbers, pages, durations, element formatting,
// character ids and the screenplay's credits. See docs/film.md.

/** Sent with the call as the JSON schema the answer must follow. */
const DRAFT_SCHEMA = {
  name: 'screenplay',
  schema: z.toJSONSchema(filmScreenplayDraft, { io: 'input' }) as Record<string, unknown>,
};

/** Standard screenplay margins (US Letter, 1.5 in binding margin): where each element sits on the page. */
const FORMATTING: Record<FilmElementType, FilmElementFormatting> = {
  action: { alignment: 'left', indentInches: 1.5, widthInches: 6, uppercase: false },
  dialogue: { alignment: 'left', indentInches: 2.5, widthInches: 3.5, uppercase: false },
  parenthetical: { alignment: 'left', indentInches: 3.1, widthInches: 2, uppercase: false },
  transition: { alignment: 'right', indentInches: 6, widthInches: 1.5, uppercase: true },
};

const SYSTEM = [
  'You are a professional screenwriter.',
  'Write a feature screenplay outline in three acts (setup, confrontation, resolution) for the concept and characters in the context.',
  'Every scene has a slug-line heading split into location (starting with INT., EXT. or INT./EXT.), timeOfDay and a one-sentence description of the place;',
  'a mood, a purpose, elements (action lines, dialogue with the speaking character, parentheticals, transitions) and shots with the characters in frame.',
  'Write real dialogue in each character’s voice; never repeat a line. Use the concept’s setting for the locations.',
].join(' ');

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
    ...characters.flatMap((c) => [
      c.name,
      c.description,
      c.personality,
      c.motivation,
      c.goal,
      c.conflict,
      c.arc,
      c.backstory,
    ]),
  ]
    .filter((s): s is string => typeof s === 'string' && s.length > 0)
    .join('\n');
}

/**
 * POST /api/ai/film-agent: a three-act screenplay from the concept and characters. Free on the local
 * writer; TEXT_AGENTS.creditsPerCall when a vendor LLM writes (refunded on failure).
 */
export async function runFilmAgent(ctx: AppContext, userId: string, input: FilmAgentInput): Promise<FilmAgentReply> {
  ctx.engines.checkPrompt(userText(input));
  return chargedTextAgent(ctx, { userId, agent: 'film-agent', label: 'Film agent' }, () => writeScreenplay(ctx, input));
}

/** Character ids: the ones the studio sent, else 'character-N' in the order given. */
function castOf(input: FilmAgentInput) {
  return input.characters.map((c, i) => ({ id: c.id?.trim() || `character-${i + 1}`, name: c.name, role: c.role }));
}

/** The issues of an answer that does not fit the schema, as short 'path: message' lines. */
function issuesOf(error: z.ZodError): string[] {
  return error.issues.slice(0, 20).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
}

/**
 * Asks the engine for the draft. An answer that does not fit the schema gets one repair call (the
 * previous answer and its issues are sent back); a second misfit is a 502 with the issues in `details`.
 */
async function draftOf(
  engine: TextEngine,
  input: FilmAgentInput,
): Promise<{ draft: FilmScreenplayDraft; result: TextResult }> {
  const request = {
    purpose: 'screenplay',
    system: SYSTEM,
    prompt: `Write the screenplay for "${input.concept.title}".`,
    jsonSchema: DRAFT_SCHEMA,
    context: { concept: input.concept, characters: input.characters },
  };
  let result = await engine.complete(request);
  let parsed = filmScreenplayDraft.safeParse(result.json);
  if (parsed.success) return { draft: parsed.data, result };
  const issues = issuesOf(parsed.error);
  result = await engine.complete({
    ...request,
    prompt: `${request.prompt}\n\nYour previous answer did not follow the schema:\n${issues.join('\n')}\n\nPrevious answer:\n${result.text.slice(0, 20_000)}\n\nAnswer again with the whole corrected screenplay.`,
  });
  parsed = filmScreenplayDraft.safeParse(result.json);
  if (parsed.success) return { draft: parsed.data, result };
  throw new AppError(502, 'film_agent_failed', FILM_MESSAGES.screenplayFailed, { issues: issuesOf(parsed.error) });
}

/** Splits `total` into `parts` whole numbers that add up to it (earlier parts take the remainder). */
function splitWhole(total: number, parts: number): number[] {
  const base = Math.floor(total / parts);
  return Array.from({ length: parts }, (_, i) => base + (i < total - base * parts ? 1 : 0));
}

async function writeScreenplay(ctx: AppContext, input: FilmAgentInput): Promise<FilmAgentReply> {
  const { concept } = input;
  const { engine } = ctx.engines.text();
  const { draft, result } = await draftOf(engine, input);
  const cast = castOf(input);
  const idOf = (name: string) => cast.find((c) => c.name.toLowerCase() === name.trim().toLowerCase())?.id;
  const pages = actPageSplit(concept.targetDuration);
  let sceneNumber = 0;
  const acts = draft.acts.map((act, a) => {
    const actPages = pages[a] ?? 0;
    const scenePages = splitWhole(actPages, act.scenes.length);
    const scenes = act.scenes.map((s, k): FilmScene => {
      sceneNumber++;
      const id = `scene-${sceneNumber}`;
      return {
        id,
        sceneNumber,
        number: sceneNumber,
        heading: s.heading,
        description: s.description,
        mood: s.mood,
        purpose: s.purpose,
        estimatedDuration: scenePages[k] ?? 0,
        elements: s.elements.map((e, n) => ({
          id: `${id}-element-${n + 1}`,
          type: e.type,
          content: e.content,
          text: e.content,
          ...(e.character ? { character: e.character.toUpperCase() } : {}),
          formatting: FORMATTING[e.type],
        })),
        shots: s.shots.map((shot, n) => ({
          id: `${id}-shot-${n + 1}`,
          index: n + 1,
          type: shot.type,
          shotType: shot.type,
          cameraMovement: shot.cameraMovement,
          description: shot.description,
          prompt: shot.prompt,
          duration: shot.duration,
          characters: [...new Set(shot.characters.map(idOf).filter((v): v is string => Boolean(v)))],
        })),
      };
    });
    return {
      id: `act-${a + 1}`,
      actNumber: a + 1,
      number: a + 1,
      title: act.title,
      description: act.description,
      pageCount: actPages,
      pages: actPages,
      plotPoints: act.plotPoints,
      scenes,
    };
  });
  const totalPageCount = acts.reduce((n, act) => n + act.pageCount, 0);
  const sceneCount = acts.reduce((n, act) => n + act.scenes.length, 0);
  const shotCount = acts.reduce((n, act) => n + act.scenes.reduce((m, s) => m + s.shots.length, 0), 0);
  const engineName = typeof result.metadata?.engine === 'string' ? result.metadata.engine : engine.name;
  const model = typeof result.metadata?.model === 'string' ? result.metadata.model : engineName;
  const now = ctx.clock.now().toISOString();
  return {
    success: true,
    data: {
      screenplay: {
        title: concept.title,
        logline: concept.logline?.trim() || draft.logline,
        acts,
        totalPageCount,
        estimatedRuntime: totalPageCount,
        runtimeMinutes: totalPageCount,
        characters: cast,
        themes: draft.themes,
        writtenBy:
          engineName === 'local' ? 'GenPro Film Agent (local writer)' : `GenPro Film Agent (${engineName}: ${model})`,
        version: '1.0',
        dateCreated: now,
      },
      metadata: {
        generator: 'film-agent',
        engine: engineName,
        genre: concept.genre,
        tone: concept.tone,
        sceneCount,
        shotCount,
        createdAt: now,
      },
    },
  };
}
