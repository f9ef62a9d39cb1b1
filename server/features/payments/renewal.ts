import { and, eq, inArray, lte, ne } from 'drizzle-orm';
import { TRIAL_PLAN } from '../../../common/api/auth.constants.ts';
import { PAYMENT_RETURN_URLS } from '../../../common/api/payments.constants.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { paymentOrders, subscriptions } from '../../db/schema/index.ts';
import type { ScheduledJob } from '../../platform/jobs/types.ts';
import { addMonth, fulfilOrder, RenewalSuperseded } from './fulfil.ts';
import type { SubscriptionState } from './provider.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'config' | 'log'>;
type SubscriptionRow = typeof subscriptions.$inferSelect;

/** Local rows that still hold (or held until their period ended) a paid or trial subscription. */
const RUNNING = ['active', 'trialing', 'past_due'];

/** The renewal sweep every 5 minutes on the job queue (handed to it by server/jobs.ts). */
export const subscriptionRenewalJob: ScheduledJob = {
  name: 'maintenance.subscription-renewal',
  cron: '*/5 * * * *',
  run: (ctx) => renewDueSubscriptions(ctx),
};

/**
 * The renewal sweep of the local checkout (scheduled on the job queue as subscriptionRenewalJob): every
 * local subscription whose period has ended is either expired (cancelled at period end: status canceled,
 * access ends) or renewed through `fulfilOrder` — a completed `subscription` order of the plan's price,
 * the period one calendar month further and the renewal in the credit history. Each renewal is keyed
 * by subscription and the period it renews (the order's unique `provider_session_id`), so a sweep run
 * twice, or by two workers at once, renews a period once.
 */
export async function renewDueSubscriptions(deps: Deps): Promise<{ renewed: number; expired: number; paused: number }> {
  const now = deps.clock.now();
  const ended = and(
    eq(subscriptions.provider, 'local'),
    inArray(subscriptions.status, RUNNING),
    lte(subscriptions.currentPeriodEnd, now),
  );
  const expired = await deps.db
    .update(subscriptions)
    .set({ status: 'canceled', updatedAt: now })
    .where(and(ended, eq(subscriptions.cancelAtPeriodEnd, true)))
    .returning({ id: subscriptions.id });
  // The card-less free trial is never billed: it pauses (settledSubscriptionStatus says why).
  const paused = await deps.db
    .update(subscriptions)
    .set({ status: 'paused', updatedAt: now })
    .where(
      and(
        eq(subscriptions.provider, 'local'),
        eq(subscriptions.status, 'trialing'),
        eq(subscriptions.planType, TRIAL_PLAN),
        eq(subscriptions.cancelAtPeriodEnd, false),
        lte(subscriptions.trialEnd, now),
      ),
    )
    .returning({ id: subscriptions.id });
  const due = await deps.db
    .select()
    .from(subscriptions)
    .where(and(ended, eq(subscriptions.cancelAtPeriodEnd, false), ne(subscriptions.planType, TRIAL_PLAN)));
  let renewed = 0;
  for (const row of due) {
    try {
      if (await renewLocal(deps, row, now)) renewed += 1;
    } catch (error) {
      // One row's failure does not hold up the others; it is tried again at the next sweep.
      if (error instanceof RenewalSuperseded)
        deps.log.info({ subscriptionId: row.id }, 'subscription changed before its renewal; skipped');
      else deps.log.error({ err: error, subscriptionId: row.id }, 'subscription renewal failed');
    }
  }
  if (renewed > 0 || expired.length > 0 || paused.length > 0)
    deps.log.info({ renewed, expired: expired.length, paused: paused.length }, 'subscriptions swept');
  return { renewed, expired: expired.length, paused: paused.length };
}

async function renewLocal(deps: Deps, row: SubscriptionRow, now: Date): Promise<boolean> {
  const renews = row.currentPeriodEnd;
  if (!renews) return false;
  // Normally the new month follows the old one; a subscription left unrenewed for over a month starts now.
  const periodStart = addMonth(renews) > now ? renews : now;
  return deps.db.transaction(async (tx) => {
    const orderId = await renewalOrder(tx, deps, {
      userId: row.userId,
      provider: 'local',
      key: `renewal:${row.id}:${renews.toISOString()}`,
      amountCents: deps.config.SUBSCRIPTION_PRICE_CENTS,
      planType: row.planType,
    });
    const result = await fulfilOrder({ ...deps, db: tx }, orderId, { renewal: { periodStart, renews } });
    return result.fulfilled;
  });
}

/**
 * The `subscription` order of one renewal, created once per key (local: subscription + period; Stripe:
 * the invoice id), in `provider_session_id`, whose unique index makes concurrent creations agree.
 */
async function renewalOrder(
  tx: Db,
  deps: Pick<AppContext, 'clock'>,
  order: { userId: string; provider: 'local' | 'stripe'; key: string; amountCents: number; planType: string },
): Promise<string> {
  const now = deps.clock.now();
  await tx
    .insert(paymentOrders)
    .values({
      userId: order.userId,
      kind: 'subscription',
      provider: order.provider,
      providerSessionId: order.key,
      amountCents: order.amountCents,
      planType: order.planType,
      successUrl: PAYMENT_RETURN_URLS.subscription.success,
      cancelUrl: PAYMENT_RETURN_URLS.subscription.cancel,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  const [row] = await tx
    .select({ id: paymentOrders.id })
    .from(paymentOrders)
    .where(eq(paymentOrders.providerSessionId, order.key));
  if (!row) throw new Error(`renewal order ${order.key} missing`);
  return row.id;
}

/**
 * Stripe's renewal: `invoice.paid` with billing_reason `subscription_cycle` (inside the webhook's
 * transaction). The same fulfilment as a local renewal, keyed by the invoice id; the subscription's new
 * period is what Stripe reports (retrieved before the transaction). Returns whether this call renewed.
 */
export async function renewStripeSubscription(
  tx: Db,
  deps: Deps,
  invoice: { id: string; amountPaid: number },
  state: SubscriptionState,
): Promise<boolean> {
  const [row] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.providerSubscriptionId, state.providerSubscriptionId));
  const userId = row?.userId ?? state.userId;
  if (!userId) {
    deps.log.warn({ subscriptionId: state.providerSubscriptionId }, 'stripe invoice matches no user');
    return false;
  }
  const orderId = await renewalOrder(tx, deps, {
    userId,
    provider: 'stripe',
    key: invoice.id,
    amountCents: invoice.amountPaid,
    planType: row?.planType && row.planType !== TRIAL_PLAN ? row.planType : deps.config.SUBSCRIPTION_PLAN_TYPE,
  });
  const result = await fulfilOrder({ ...deps, db: tx }, orderId, { subscription: state, renewal: { stripe: true } });
  return result.fulfilled;
}
