import { and, eq, sql } from 'drizzle-orm';
import { TRIAL_PLAN } from '../../../common/api/auth.constants.ts';
import { centsToEuros } from '../../../common/api/money.ts';
import { SUBSCRIPTION_PLAN } from '../../../common/api/payments.constants.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { paymentOrders, subscriptions } from '../../db/schema/index.ts';
import { addCredits, noteInCreditHistory } from '../../platform/credits/ledger.ts';
import { creditMoney } from '../../platform/money/ledger.ts';
import type { OrderRow, SubscriptionState } from './provider.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'config'>;

export interface FulfilOptions {
  /** Stripe subscriptions: the subscription as Stripe reports it (retrieved before this call). */
  subscription?: SubscriptionState;
  /**
   * A renewal order (the monthly sweep, or Stripe's `invoice.paid` subscription_cycle): the period
   * advances instead of starting now, and the plan's monthly credits are granted (or, with none, a
   * zero row records the payment in the credit history). Local renewals give the new period's start and
   * the period end they renew, which must still be the row's (else nothing is written).
   */
  renewal?: { periodStart: Date; renews: Date } | { stripe: true };
}

/** Thrown inside fulfilment when the subscription changed since the renewal was decided: rolls back. */
export class RenewalSuperseded extends Error {}

/** One calendar month after `from` (the local checkout's billing period). */
export function addMonth(from: Date): Date {
  const next = new Date(from);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
}

/**
 * Fulfils a paid order, for both providers: exactly once, however often and however concurrently it
 * is called. The conditional UPDATE (status open → completed) inside the transaction is the gate; only
 * the caller that flips it writes the ledger rows, in the same transaction:
 * - credits_topup → credits `addition` (source 'purchase');
 * - wallet_topup → wallet `credit` (source 'topup', reference the order id);
 * - subscription → the user's subscriptions row, active (or trialing) with its period.
 * Returns the order and whether this call fulfilled it.
 */
export async function fulfilOrder(
  deps: Deps,
  orderId: string,
  options: FulfilOptions = {},
): Promise<{ fulfilled: boolean; order: OrderRow | null }> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [order] = await tx
      .update(paymentOrders)
      .set({ status: 'completed', fulfilledAt: now, updatedAt: now })
      .where(and(eq(paymentOrders.id, orderId), eq(paymentOrders.status, 'open')))
      .returning();
    if (!order) {
      const [existing] = await tx.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
      return { fulfilled: false, order: existing ?? null };
    }
    if (order.kind === 'credits_topup') {
      const credits = order.credits ?? 0;
      await addCredits(tx, {
        userId: order.userId,
        amount: credits,
        source: 'purchase',
        description: `Credit top-up: ${credits} credits (€${centsToEuros(order.amountCents).toFixed(2)})`,
      });
    } else if (order.kind === 'wallet_topup') {
      await creditMoney(tx, {
        userId: order.userId,
        account: 'wallet',
        amountCents: order.amountCents,
        source: 'topup',
        referenceId: order.id,
        description: 'Wallet top-up',
      });
    } else if (options.renewal) {
      if ('periodStart' in options.renewal) await advanceLocalPeriod(tx, order, options.renewal, now);
      else await activateSubscription(tx, deps, order, now, options.subscription);
      await recordRenewal(tx, deps, order);
    } else {
      await activateSubscription(tx, deps, order, now, options.subscription);
    }
    return { fulfilled: true, order };
  });
}

async function activateSubscription(
  tx: Db,
  deps: Deps,
  order: OrderRow,
  now: Date,
  stripe: SubscriptionState | undefined,
): Promise<void> {
  const planType = order.planType ?? deps.config.SUBSCRIPTION_PLAN_TYPE;
  let values: {
    status: string;
    trialEnd: Date | null;
    currentPeriodEnd: Date | null;
    provider: string;
    providerSubscriptionId: string | null;
  };
  if (stripe) {
    values = {
      status: stripe.status,
      trialEnd: stripe.trialEnd,
      currentPeriodEnd: stripe.currentPeriodEnd,
      provider: 'stripe',
      providerSubscriptionId: stripe.providerSubscriptionId,
    };
  } else {
    // Local checkout: a still-running free trial carries over (first period starts when it ends), as
    // Stripe's trial_period_days does; otherwise the paid month starts now.
    const [current] = await tx.select().from(subscriptions).where(eq(subscriptions.userId, order.userId));
    const trialRunning =
      current?.planType === TRIAL_PLAN &&
      current.status === 'trialing' &&
      current.trialEnd !== null &&
      current.trialEnd.getTime() > now.getTime();
    values =
      trialRunning && current?.trialEnd
        ? {
            status: 'trialing',
            trialEnd: current.trialEnd,
            currentPeriodEnd: current.trialEnd,
            provider: 'local',
            providerSubscriptionId: null,
          }
        : {
            status: 'active',
            trialEnd: null,
            currentPeriodEnd: addMonth(now),
            provider: 'local',
            providerSubscriptionId: null,
          };
  }
  await tx
    .insert(subscriptions)
    .values({ userId: order.userId, planType, cancelAtPeriodEnd: false, createdAt: now, updatedAt: now, ...values })
    .onConflictDoUpdate({
      target: subscriptions.userId,
      set: { planType, cancelAtPeriodEnd: stripe?.cancelAtPeriodEnd ?? false, updatedAt: sql`now()`, ...values },
    });
}

/** A local renewal: one more calendar month, from the end of the period it renews (guarded). */
async function advanceLocalPeriod(
  tx: Db,
  order: OrderRow,
  renewal: { periodStart: Date; renews: Date },
  now: Date,
): Promise<void> {
  const rows = await tx
    .update(subscriptions)
    .set({
      status: 'active',
      trialEnd: null,
      currentPeriodEnd: addMonth(renewal.periodStart),
      updatedAt: now,
    })
    .where(
      and(
        eq(subscriptions.userId, order.userId),
        eq(subscriptions.provider, 'local'),
        eq(subscriptions.cancelAtPeriodEnd, false),
        eq(subscriptions.currentPeriodEnd, renewal.renews),
      ),
    )
    .returning({ id: subscriptions.id });
  if (rows.length === 0) throw new RenewalSuperseded(`subscription of order ${order.id} changed`);
}

/** What the user sees in Transactions for a renewal: the plan's monthly credits, or a zero row. */
async function recordRenewal(tx: Db, deps: Deps, order: OrderRow): Promise<void> {
  const credits = deps.config.SUBSCRIPTION_MONTHLY_CREDITS;
  const paid = `${SUBSCRIPTION_PLAN.displayName} renewed (€${centsToEuros(order.amountCents).toFixed(2)})`;
  if (credits > 0)
    await addCredits(tx, {
      userId: order.userId,
      amount: credits,
      source: 'subscription',
      description: `${paid}: ${credits} monthly credits`,
    });
  else await noteInCreditHistory(tx, { userId: order.userId, source: 'subscription', description: paid });
}
