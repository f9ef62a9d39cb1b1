// Structured-output schemas for an OpenAI-compatible server. Callers that rely on a shape without
// sending a schema (the film and movie agents name a `purpose` instead) get one from here, and every
// schema is tightened to what `strict: true` demands (closed objects, every property listed as required).

const str = { type: 'string' } as const;
const num = { type: 'number' } as const;

const shot = {
  type: 'object',
  properties: { shotType: str, cameraMovement: str, prompt: str, durationSeconds: num },
};

/** Read by server/features/film/service.ts (runFilmAgent). */
const screenplay = {
  type: 'object',
  properties: {
    logline: str,
    acts: {
      type: 'array',
      description: 'Exactly three acts: setup, confrontation, resolution.',
      items: {
        type: 'object',
        properties: {
          title: str,
          scenes: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                heading: { type: 'string', description: 'Slug line, e.g. INT. LIGHTHOUSE - NIGHT' },
                beat: str,
                summary: str,
                shots: { type: 'array', items: shot },
              },
            },
          },
        },
      },
    },
  },
};

/** Read by server/features/sequences/service.ts (runMovieAgent). */
const moviePlan = {
  type: 'object',
  properties: {
    scenes: {
      type: 'array',
      items: {
        type: 'object',
        properties: { sceneNumber: num, heading: str, summary: str, shots: { type: 'array', items: shot } },
      },
    },
  },
};

const BY_PURPOSE: Record<string, { name: string; schema: Record<string, unknown> }> = {
  screenplay: { name: 'screenplay', schema: screenplay },
  'movie-agent': { name: 'movie_plan', schema: moviePlan },
};

export function schemaForPurpose(purpose: string | undefined) {
  return purpose ? BY_PURPOSE[purpose.toLowerCase()] : undefined;
}

/** A copy of `schema` that OpenAI's strict mode accepts: objects closed and all their properties required. */
export function strictSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strictSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema') continue;
    if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strictSchema(v)]));
    } else {
      out[key] = strictSchema(value);
    }
  }
  const isObject = out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object'));
  if (isObject && out.properties && typeof out.properties === 'object') {
    out.additionalProperties = false;
    out.required = Object.keys(out.properties);
  }
  return out;
}
