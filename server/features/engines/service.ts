import type { AdminEnginesReply, EngineLastCall, EnginesReply } from '../../../common/api/engines.ts';
import { PRICES } from '../../../common/api/generation.constants.ts';
import type { AppContext } from '../../context.ts';
import { readEngineCalls } from '../../engines/calls.ts';

/** The table is read on every admin and health call; a database slower than this leaves this process's own view. */
const READ_TIMEOUT_MS = 1_500;

/**
 * The engine catalogue people see (GET /api/ai/engines): every model with the engine serving it,
 * whether it can be called, and both price lists, so the web labels pickers and prices from it.
 */
export function engineCatalogue(ctx: AppContext): EnginesReply {
  const models = ctx.engines.catalogue().map(({ lastCall: _lastCall, ...model }) => model);
  return { success: true, ...priceLists(ctx), models };
}

/** The catalogue for operators (GET /api/admin/engines): with each engine's last call (any process) and its message. */
export async function adminEngineCatalogue(ctx: AppContext): Promise<AdminEnginesReply> {
  return { success: true, ...priceLists(ctx), models: await withLastCalls(ctx) };
}

/** The `engines` list of GET /healthz: no messages, and names only (health reveals no data). */
export async function healthEngines(ctx: AppContext) {
  return (await withLastCalls(ctx)).map((m) => ({
    kind: m.kind,
    model: m.model,
    engine: m.engine,
    available: m.available,
    lastCall: m.lastCall ? { outcome: m.lastCall.outcome, at: m.lastCall.at } : null,
  }));
}

/**
 * The registry's catalogue with each engine's last call made by any process (the `engine_calls` table, which every
 * process writes), or this process's own when it is newer (its write may still be on its way). When the table cannot
 * be read in time, this process's own calls only.
 */
async function withLastCalls(ctx: AppContext) {
  const models = ctx.engines.catalogue();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('engine_calls read timed out')), READ_TIMEOUT_MS);
  });
  let recorded: Map<string, EngineLastCall>;
  try {
    recorded = await Promise.race([readEngineCalls(ctx.db), timeout]);
  } catch (error) {
    ctx.log.warn({ err: error }, "engines' last calls not read; showing this process's own");
    return models;
  } finally {
    clearTimeout(timer);
  }
  return models.map((model) => {
    const stored = recorded.get(`${model.kind}:${model.engine}`) ?? null;
    return { ...model, lastCall: newest(model.lastCall, stored) };
  });
}

function newest(a: EngineLastCall | null, b: EngineLastCall | null): EngineLastCall | null {
  if (!a || !b) return a ?? b;
  return Date.parse(b.at) >= Date.parse(a.at) ? b : a;
}

function priceLists(ctx: AppContext) {
  return {
    localEngines: ctx.engines.localEnginesOn(),
    prices: { vendor: { ...PRICES }, local: { ...ctx.engines.localPrices() } },
  };
}
