import type { AdminEnginesReply, EnginesReply } from '../../../common/api/engines.ts';
import { PRICES } from '../../../common/api/generation.constants.ts';
import type { AppContext } from '../../context.ts';

/**
 * The engine catalogue people see (GET /api/ai/engines): every model with the engine serving it,
 * whether it can be called, and both price lists, so the web labels pickers and prices from it.
 */
export function engineCatalogue(ctx: AppContext): EnginesReply {
  const models = ctx.engines.catalogue().map(({ lastCall: _lastCall, ...model }) => model);
  return { success: true, ...priceLists(ctx), models };
}

/** The catalogue for operators (GET /api/admin/engines): with each engine's last call and its message. */
export function adminEngineCatalogue(ctx: AppContext): AdminEnginesReply {
  return { success: true, ...priceLists(ctx), models: ctx.engines.catalogue() };
}

/** The `engines` list of GET /healthz: no messages, and names only (health reveals no data). */
export function healthEngines(ctx: AppContext) {
  return ctx.engines.catalogue().map((m) => ({
    kind: m.kind,
    model: m.model,
    engine: m.engine,
    available: m.available,
    lastCall: m.lastCall ? { outcome: m.lastCall.outcome, at: m.lastCall.at } : null,
  }));
}

function priceLists(ctx: AppContext) {
  return {
    localEngines: ctx.engines.localEnginesOn(),
    prices: { vendor: { ...PRICES }, local: { ...ctx.engines.localPrices() } },
  };
}
