import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { TEXT_AGENTS } from '../../../common/api/generation.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { currentUser } from '../auth/session.ts';
import { addCredits, reserveCredits } from '../credits/ledger.ts';
import { assertStudioAccess } from '../credits/subscription-access.ts';
import { AppError } from '../errors.ts';
import { sharedAddressRateLimit, sharedUserRateLimit } from '../http/user-rate-limit.ts';

// Metering of the text agents (movie agent, image agent, film agent, campaign plan): the studio's access
// rule (verified email, subscription) even when they are free, one shared per-user and one per-address
// rate limit, and a price per call when a vendor LLM writes the answer.

const perUser = sharedUserRateLimit('text-agents', (config) => config.RATE_LIMIT_TEXT_AGENTS_PER_MINUTE);
const perAddress = sharedAddressRateLimit(
  'text-agents-address',
  (config) => config.RATE_LIMIT_TEXT_AGENTS_PER_ADDRESS_PER_MINUTE,
);

/**
 * The limits shared by the four text agent routes: RATE_LIMIT_TEXT_AGENTS_PER_MINUTE per user, then
 * RATE_LIMIT_TEXT_AGENTS_PER_ADDRESS_PER_MINUTE per client address (however many accounts it signs in
 * with). Add them as a route's `onRequest`.
 */
export function textAgentRateLimit(ctx: AppContext, app: FastifyInstance) {
  return [perUser(ctx, app), perAddress(ctx, app)];
}

/**
 * The text agents' `preHandler`: the studio's access rule even when the call is free, before any work — as
 * paid generation answers it (the ledger's own check, assertStudioAccess): 403 `email_not_verified` before
 * the email is verified, 403 `subscription_required` without subscription access (admins aside).
 */
export function textAgentAccess(ctx: AppContext): preHandlerAsyncHookHandler {
  return async (request) => {
    await assertStudioAccess(ctx.db, currentUser(request).id, ctx.clock.now());
  };
}

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
 * is reserved first — 403 without studio access, 402 when the balance is short, and the vendor is never
 * asked — and given back when `write` fails. (Free calls were let in by textAgentAccess.)
 */
export async function chargedTextAgent<T>(ctx: AppContext, call: TextAgentCall, write: () => Promise<T>): Promise<T> {
  const price = textAgentPrice(ctx);
  const capped = async () => assertAnswerSize(await write());
  if (price === 0) return capped();
  await reserveCredits(ctx.db, {
    userId: call.userId,
    amount: price,
    source: 'generation',
    description: `${call.label} (${ctx.engines.text().engine.name})`,
    generationType: call.agent,
    now: ctx.clock.now(),
  });
  try {
    return await capped();
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

/**
 * The output cap of the text agents: an answer whose JSON is longer than `maxBytes` (TEXT_AGENTS.maxAnswerBytes)
 * is refused with 422 `answer_too_long` and the message (a vendor's credit is refunded), rather than sent.
 */
export function assertAnswerSize<T>(answer: T, maxBytes: number = TEXT_AGENTS.maxAnswerBytes): T {
  const bytes = Buffer.byteLength(JSON.stringify(answer) ?? '');
  if (bytes > maxBytes) {
    throw new AppError(422, 'answer_too_long', MESSAGES.generation.agentAnswerTooLong(Math.floor(maxBytes / 1024)), {
      maxBytes,
    });
  }
  return answer;
}
