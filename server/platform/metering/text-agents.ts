import { TEXT_AGENTS } from '../../../common/api/generation.constants.ts';
import type { AppContext } from '../../context.ts';
import { addCredits, reserveCredits } from '../credits/ledger.ts';
import { sharedUserRateLimit } from '../http/user-rate-limit.ts';

// Metering of the text agents (movie agent, image agent, film agent, campaign plan): one shared
// per-user rate limit, and a price per call when a vendor LLM writes the answer.

/**
 * The one per-user limit (RATE_LIMIT_TEXT_AGENTS_PER_MINUTE) shared by the four text agent routes. Add it
 * as a route's `onRequest`.
 */
export const textAgentRateLimit = sharedUserRateLimit((config) => config.RATE_LIMIT_TEXT_AGENTS_PER_MINUTE);

/** Credits a text agent call costs now: free on the local deterministic writer, TEXT_AGENTS.creditsPerCall on a vendor. */
function textAgentPrice(ctx: Pick<AppContext, 'engines'>): number {
  return ctx.engines.text().engine.name === 'local' ? 0 : TEXT_AGENTS.creditsPerCall;
}

export interface TextAgentCall {
  userId: string;
  /** The ledger's generation_type: 'movie-agent', 'image-agent', 'film-agent', 'campaign-plan'. */
  agent: string;
  /** The ledger row's description, e.g. 'Movie agent'. */
  label: string;
}

/**
 * Runs `write` (the agent's LLM call) and charges for it when a vendor serves the text model: the price
 * is reserved first — 403 without subscription access, 402 when the balance is short, and the vendor
 * is never asked — and given back when `write` fails.
 */
export async function chargedTextAgent<T>(ctx: AppContext, call: TextAgentCall, write: () => Promise<T>): Promise<T> {
  const price = textAgentPrice(ctx);
  if (price === 0) return write();
  await reserveCredits(ctx.db, {
    userId: call.userId,
    amount: price,
    source: 'generation',
    description: `${call.label} (${ctx.engines.text().engine.name})`,
    generationType: call.agent,
    now: ctx.clock.now(),
  });
  try {
    return await write();
  } catch (error) {
    await addCredits(ctx.db, {
      userId: call.userId,
      amount: price,
      source: 'refund',
      description: `Refund: ${call.label} failed`,
      generationType: call.agent,
    }).catch((refundError) =>
      ctx.log.error({ err: refundError, userId: call.userId, agent: call.agent }, 'text agent refund failed'),
    );
    throw error;
  }
}
