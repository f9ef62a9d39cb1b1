import { and, eq } from 'drizzle-orm';
import {
  SUBSCRIPTION_ACCESS_STATUSES,
  type SubscriptionStatus,
  TRIAL_PLAN,
} from '../../../common/api/auth.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { paymentEvents, paymentOrders, subscriptions } from '../../db/schema/index.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { applyAccountUpdated, applyConnectPayout, type PendingReversal } from '../payouts/connect.ts';
import { applyTransferReversal } from '../payouts/service.ts';
import { createStripeConnect } from '../payouts/stripe-transfers.ts';
import { fulfilOrder } from './fulfil.ts';
import type { Payments, SubscriptionState } from './provider.ts';
import { renewStripeSubscription } from './renewal.ts';
import { verifyStripeSignature } from './signature.ts';
import { subscriptionState } from './stripe.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'config' | 'log'>;

interface StripeEvent {
  id: string;
  type: string;
  /** Set on events of a connected account (Connect webhooks): the creator's acct_…. */
  account?: string;
  data: { object: Record<string, unknown> };
}

function parseEvent(rawBody: Buffer): StripeEvent {
  let event: unknown;
  try {
    event = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw badRequest('Invalid webhook payload');
  }
  const e = event as Partial<StripeEvent> | null;
  if (!e || typeof e.id !== 'string' || typeof e.type !== 'string' || typeof e.data?.object !== 'object')
    throw badRequest('Invalid webhook payload');
  return e as StripeEvent;
}

const PAID = new Set(['paid', 'no_payment_required']);

/**
 * POST /api/payment/webhook: verifies the signature on the raw body, then handles each Stripe event
 * once (payment_events keyed by the event id, inserted in the same transaction as its effects, so a
 * failure lets Stripe retry and a replay changes nothing).
 */
export async function handleStripeWebhook(
  deps: Deps,
  payments: Payments,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ duplicate: boolean }> {
  // The platform endpoint's secret, or the Connect endpoint's (connected-account events) when it has its own.
  const secrets = [deps.config.STRIPE_WEBHOOK_SECRET, deps.config.STRIPE_CONNECT_WEBHOOK_SECRET].filter(
    (s): s is string => Boolean(s),
  );
  const nowMs = deps.clock.now().getTime();
  if (!secrets.some((secret) => verifyStripeSignature(rawBody, signature, secret, nowMs))) {
    throw new AppError(400, 'invalid_signature', MESSAGES.payments.webhookSignature);
  }
  const event = parseEvent(rawBody);
  const [seen] = await deps.db
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(eq(paymentEvents.id, event.id));
  if (seen) return { duplicate: true };

  const object = event.data.object;
  // Network calls happen before the transaction: a completed subscription checkout needs the subscription.
  let subscription: SubscriptionState | undefined;
  const isCompletion =
    event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded';
  if (isCompletion && object.mode === 'subscription' && PAID.has(String(object.payment_status))) {
    const subId =
      typeof object.subscription === 'string'
        ? object.subscription
        : (object.subscription as { id?: string } | null)?.id;
    if (subId && payments.stripe) subscription = await payments.stripe.retrieve(subId);
  }
  const renewalOf = event.type === 'invoice.paid' ? cycleInvoiceSubscription(object) : null;
  if (renewalOf && payments.stripe) subscription = await payments.stripe.retrieve(renewalOf);

  const after: { reversal: PendingReversal | null } = { reversal: null };
  const result = await deps.db.transaction(async (tx) => {
    after.reversal = null;
    const inserted = await tx
      .insert(paymentEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (inserted.length === 0) return { duplicate: true };
    if (isCompletion) {
      const orderId = await completionOrder(tx, deps, object);
      if (orderId) {
        const result = await fulfilOrder({ ...deps, db: tx }, orderId, { subscription });
        deps.log.info({ orderId, fulfilled: result.fulfilled, eventId: event.id }, 'stripe checkout completed');
      }
    } else if (event.type === 'checkout.session.expired') await expireOrder(tx, deps, object);
    else if (event.type === 'transfer.reversed') await applyTransferReversal(tx, deps, object);
    else if (event.type === 'account.updated' && event.account) await applyAccountUpdated(tx, deps, object);
    else if ((event.type === 'payout.paid' || event.type === 'payout.failed') && event.account) {
      const outcome = await applyConnectPayout(tx, deps, { type: event.type, account: event.account }, object);
      after.reversal = outcome?.reversal ?? null;
    } else if (event.type.startsWith('customer.subscription.'))
      await applySubscription(tx, deps, subscriptionState(object));
    else if (renewalOf && subscription) {
      const invoice = { id: String(object.id), amountPaid: Number(object.amount_paid ?? 0) };
      const renewed = await renewStripeSubscription(tx, deps, invoice, subscription);
      deps.log.info({ invoiceId: invoice.id, renewed, eventId: event.id }, 'stripe subscription renewed');
    }
    return { duplicate: false };
  });
  if (after.reversal) await reverseFailedPayout(deps, after.reversal);
  return result;
}

/**
 * A bank payout that failed leaves the money on the creator's connected account; the transfer is reversed
 * (one idempotency key per payout) so it is back on the platform, as it is back in the creator's earnings.
 * If Stripe does not answer, it is logged for an admin: the event is already handled and is not retried.
 */
async function reverseFailedPayout(deps: Deps, reversal: PendingReversal): Promise<void> {
  const connect = createStripeConnect(deps.config);
  if (!connect) return;
  try {
    await connect.reverseTransfer(reversal);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    deps.log.error({ ...reversal, detail }, 'reversing the transfer of a failed payout failed; reverse it by hand');
  }
}

/**
 * The subscription an `invoice.paid` renews, when its billing_reason is `subscription_cycle` (the
 * first invoice, `subscription_create`, is fulfilled by the checkout completion). Newer API versions
 * move the id to parent.subscription_details.subscription.
 */
function cycleInvoiceSubscription(invoice: Record<string, unknown>): string | null {
  if (invoice.billing_reason !== 'subscription_cycle') return null;
  const idOf = (value: unknown) =>
    typeof value === 'string'
      ? value
      : typeof (value as { id?: unknown } | null)?.id === 'string'
        ? (value as { id: string }).id
        : null;
  const parent = invoice.parent as { subscription_details?: { subscription?: unknown } } | null | undefined;
  return idOf(invoice.subscription) ?? idOf(parent?.subscription_details?.subscription);
}

/** The order a paid checkout.session.completed belongs to, or null (unpaid sessions stay open). */
async function completionOrder(tx: Db, deps: Deps, session: Record<string, unknown>): Promise<string | null> {
  if (!PAID.has(String(session.payment_status))) return null;
  const metadata = (session.metadata ?? {}) as Record<string, unknown>;
  const orderId = String(session.client_reference_id ?? metadata.order_id ?? '');
  const [order] = await tx
    .select()
    .from(paymentOrders)
    .where(eq(paymentOrders.providerSessionId, String(session.id)));
  if (!order || order.id !== orderId) {
    deps.log.warn({ sessionId: session.id, orderId }, 'stripe checkout session matches no order');
    return null;
  }
  return order.id;
}

async function expireOrder(tx: Db, deps: Deps, session: Record<string, unknown>): Promise<void> {
  await tx
    .update(paymentOrders)
    .set({ status: 'expired', updatedAt: deps.clock.now() })
    .where(and(eq(paymentOrders.providerSessionId, String(session.id)), eq(paymentOrders.status, 'open')));
}

/**
 * customer.subscription.created|updated|deleted: status, cancel_at_period_end, trial_end and
 * current_period_end onto the user's row. The row is found by the Stripe subscription id, or by the
 * user id put in subscription_data[metadata] at checkout; an event about an older subscription never
 * overwrites a newer one that still gives access.
 */
async function applySubscription(tx: Db, deps: Deps, state: SubscriptionState): Promise<void> {
  const [byId] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.providerSubscriptionId, state.providerSubscriptionId));
  let row = byId;
  if (!row && state.userId) {
    const [byUser] = await tx.select().from(subscriptions).where(eq(subscriptions.userId, state.userId));
    const givesAccess = SUBSCRIPTION_ACCESS_STATUSES.includes(state.status as SubscriptionStatus);
    const ownedByOtherStripeSubscription = byUser?.provider === 'stripe' && Boolean(byUser.providerSubscriptionId);
    if (byUser && (!ownedByOtherStripeSubscription || givesAccess)) row = byUser;
    if (!byUser && givesAccess) {
      await tx.insert(subscriptions).values({
        userId: state.userId,
        planType: deps.config.SUBSCRIPTION_PLAN_TYPE,
        status: state.status,
        cancelAtPeriodEnd: state.cancelAtPeriodEnd,
        trialEnd: state.trialEnd,
        currentPeriodEnd: state.currentPeriodEnd,
        provider: 'stripe',
        providerSubscriptionId: state.providerSubscriptionId,
      });
      return;
    }
  }
  if (!row) {
    deps.log.warn({ subscriptionId: state.providerSubscriptionId }, 'stripe subscription matches no user');
    return;
  }
  await tx
    .update(subscriptions)
    .set({
      status: state.status,
      cancelAtPeriodEnd: state.cancelAtPeriodEnd,
      trialEnd: state.trialEnd,
      currentPeriodEnd: state.currentPeriodEnd,
      provider: 'stripe',
      providerSubscriptionId: state.providerSubscriptionId,
      ...(row.planType === TRIAL_PLAN ? { planType: deps.config.SUBSCRIPTION_PLAN_TYPE } : {}),
      updatedAt: deps.clock.now(),
    })
    .where(eq(subscriptions.id, row.id));
}
