// The engine catalogue (issue 19): which engine serves every model name, what it costs there, and —
// for operators — whether its vendor answered its last call. GET /api/ai/engines (signed in),
// GET /api/admin/engines (admins) and the `engines` list of GET /healthz.
import { z } from 'zod';
import { PRICE_ITEMS, type PriceTable } from './generation.constants.ts';

const ENGINE_MODEL_KINDS = ['image', 'video', 'audio', 'upscale', 'text'] as const;
export type EngineModelKind = (typeof ENGINE_MODEL_KINDS)[number];

const priceTable = z.object(
  Object.fromEntries(PRICE_ITEMS.map((item) => [item, z.number().int().min(0)])) as Record<
    keyof PriceTable,
    z.ZodNumber
  >,
);

/** The outcome of the last call an engine served in this process (none yet: null). */
const engineLastCall = z.object({
  outcome: z.enum(['ok', 'failed']),
  /** ISO time the call ended. */
  at: z.string(),
  /** The error's message when it failed (admin view only). */
  message: z.string().optional(),
});
export type EngineLastCall = z.infer<typeof engineLastCall>;

const engineModel = z.object({
  kind: z.enum(ENGINE_MODEL_KINDS),
  /** The spec's model or service name, e.g. veo-3.0-generate-001. */
  model: z.string(),
  /** Its display name, e.g. Veo 3. */
  name: z.string(),
  /** The engine that serves it: 'local' or the vendor engine (gemini, runway, byteplus, …). */
  engine: z.string(),
  engineKind: z.enum(['local', 'vendor']),
  /** The vendor's name when a vendor serves it (Google, Runway, …); null for the local engines. */
  vendor: z.string().nullable(),
  /** False in production when no vendor serves it and LOCAL_ENGINES is not true: calls answer 503. */
  available: z.boolean(),
  /** Why it is unavailable and what enables it, e.g. "… Set GEMINI_API_KEY or LOCAL_ENGINES=true". */
  unavailableReason: z.string().nullable(),
  /** The variables that give it a vendor engine (empty when no vendor adapter serves the name). */
  enabledBy: z.array(z.string()),
});
export type EngineModel = z.infer<typeof engineModel>;

/** GET /api/ai/engines */
export const enginesReply = z.object({
  success: z.literal(true),
  /** Whether names without a vendor are served by the local preview engines. */
  localEngines: z.boolean(),
  /** The price list of each engine kind: `vendor` is PRICES, `local` the configured local preview prices. */
  prices: z.object({ vendor: priceTable, local: priceTable }),
  models: z.array(engineModel),
});
export type EnginesReply = z.infer<typeof enginesReply>;

const adminEngineModel = engineModel.extend({ lastCall: engineLastCall.nullable() });
export type AdminEngineModel = z.infer<typeof adminEngineModel>;

/** GET /api/admin/engines: the catalogue with each engine's last call outcome, made by any process (table engine_calls). */
export const adminEnginesReply = enginesReply.extend({ models: z.array(adminEngineModel) });
export type AdminEnginesReply = z.infer<typeof adminEnginesReply>;

/** An entry of GET /healthz's `engines` list (no error messages: health reveals no data). */
export const healthEngine = z.object({
  kind: z.enum(ENGINE_MODEL_KINDS),
  model: z.string(),
  engine: z.string(),
  available: z.boolean(),
  lastCall: engineLastCall.omit({ message: true }).nullable(),
});
