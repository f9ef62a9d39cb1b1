import { and, count, desc, eq } from 'drizzle-orm';
import {
  SUBSCRIPTION_STATUSES,
  type SubscriptionStatus,
  TRIAL_DAYS,
  TRIAL_PLAN,
} from '../../../common/api/auth.constants.ts';
import { centsToEuros } from '../../../common/api/money.ts';
import {
  PAYMENT_CURRENCY,
  PAYMENT_RETURN_URLS,
  SUBSCRIPTION_PLAN,
  type TopupKind,
} from '../../../common/api/payments.constants.ts';
import type {
  CancelType,
  CreditHistory,
  CreditTransactionDto,
  SubscriptionStatusDto,
  TopupBody,
} from '../../../common/api/payments.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import { creditTransactions, paymentOrders, subscriptions, users } from '../../db/schema/index.ts';
import { hasSubscriptionAccess, settledSubscriptionStatus } from '../../platform/credits/subscription-access.ts';
import { AppError, conflict, notFound } from '../../platform/errors.ts';
import { findPackage } from './packages.ts';
import type { OrderRow, Payments, SubscriptionState } from './provider.ts';
import { toReturnPath } from './urls.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'config' | 'log'>;
type SubscriptionRow = typeof subscriptions.$inferSelect;
const M = MESSAGES.payments;
const DAY_MS = 86_400_000;

interface NewOrder {
  kind: TopupKind;
  amountCents: number;
  successUrl: string;
  cancelUrl: string;
  packageId?: string;
  credits?: number;
  planType?: string;
  productName: string;
  trialDays?: number | null;
}

/** Records an open order, then asks the provider for its checkout URL. */
async function startCheckout(
  deps: Deps,
  payments: Payments,
  userId: string,
  order: NewOrder,
): Promise<{ url: string; orderId: string }> {
  if (!payments.provider) throw new AppError(503, 'payments_not_configured', M.notConfigured);
  const provider = payments.provider;
  const successUrl = toReturnPath(order.successUrl, deps.config.publicUrl);
  const cancelUrl = toReturnPath(order.cancelUrl, deps.config.publicUrl);
  const [user] = await deps.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound();
  const now = deps.clock.now();
  const [row] = await deps.db
    .insert(paymentOrders)
    .values({
      userId,
      kind: order.kind,
      provider: provider.name,
      amountCents: order.amountCents,
      currency: PAYMENT_CURRENCY,
      packageId: order.packageId ?? null,
      credits: order.credits ?? null,
      planType: order.planType ?? null,
      successUrl,
      cancelUrl,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  try {
    const checkout = await provider.createCheckout({
      order: row,
      email: user.email,
      productName: order.productName,
      trialDays: order.trialDays ?? null,
    });
    if (checkout.sessionId) {
      await deps.db
        .update(paymentOrders)
        .set({ providerSessionId: checkout.sessionId, updatedAt: deps.clock.now() })
        .where(eq(paymentOrders.id, row.id));
    }
    return { url: checkout.url, orderId: row.id };
  } catch (error) {
    await deps.db
      .update(paymentOrders)
      .set({ status: 'cancelled', updatedAt: deps.clock.now() })
      .where(eq(paymentOrders.id, row.id));
    deps.log.error({ err: error, orderId: row.id }, 'checkout could not be started');
    if (error instanceof AppError) throw error;
    throw new AppError(502, 'payment_provider', M.startFailed);
  }
}

/** POST /api/payment/topup: a credit package. */
export function startCreditTopup(deps: Deps, payments: Payments, userId: string, body: TopupBody) {
  const pkg = findPackage(deps.config, body.topupId);
  return startCheckout(deps, payments, userId, {
    kind: 'credits_topup',
    amountCents: pkg.amountCents,
    packageId: pkg.id,
    credits: pkg.credits,
    successUrl: body.successUrl,
    cancelUrl: body.cancelUrl,
    productName: `${pkg.displayName} – ${pkg.credits} credits`,
  });
}

/** POST /api/brands/wallet/topup: `amount` euros into the brand's campaign wallet. */
export function startWalletTopup(
  deps: Deps,
  payments: Payments,
  userId: string,
  body: { amount: number; successUrl?: string; cancelUrl?: string },
) {
  return startCheckout(deps, payments, userId, {
    kind: 'wallet_topup',
    amountCents: Math.round(body.amount * 100),
    successUrl: body.successUrl ?? PAYMENT_RETURN_URLS.wallet.success,
    cancelUrl: body.cancelUrl ?? PAYMENT_RETURN_URLS.wallet.cancel,
    productName: 'Campaign wallet top-up',
  });
}

async function subscriptionOf(deps: Pick<AppContext, 'db'>, userId: string): Promise<SubscriptionRow | null> {
  const [row] = await deps.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
  return row ?? null;
}

/**
 * A local subscription whose period (or trial) is over, read before the renewal sweep (renewal.ts, every 5
 * minutes) reached it, is written with its settled status (settledSubscriptionStatus). Stripe rows change only
 * through Stripe's webhooks.
 */
async function settleLocal(deps: Deps, row: SubscriptionRow): Promise<SubscriptionRow> {
  const now = deps.clock.now();
  const status = settledSubscriptionStatus(row, now);
  if (status === row.status) return row;
  const [updated] = await deps.db
    .update(subscriptions)
    .set({ status, updatedAt: now })
    .where(eq(subscriptions.id, row.id))
    .returning();
  return updated ?? row;
}

function planInfo(config: Deps['config']): SubscriptionStatusDto['plan'] {
  return {
    planType: config.SUBSCRIPTION_PLAN_TYPE,
    displayName: SUBSCRIPTION_PLAN.displayName,
    amount: centsToEuros(config.SUBSCRIPTION_PRICE_CENTS),
    amountCents: config.SUBSCRIPTION_PRICE_CENTS,
    interval: SUBSCRIPTION_PLAN.interval,
  };
}

function toStatusDto(config: Deps['config'], row: SubscriptionRow | null, now: Date): SubscriptionStatusDto {
  const plan = planInfo(config);
  if (!row) {
    return {
      isActive: false,
      planType: null,
      status: null,
      nextBillingDate: null,
      cancelAtPeriodEnd: false,
      canCancel: false,
      trialEnd: null,
      currentPeriodEnd: null,
      canSubscribe: true,
      plan,
    };
  }
  const status = (SUBSCRIPTION_STATUSES as readonly string[]).includes(row.status)
    ? (row.status as SubscriptionStatus)
    : 'incomplete';
  const isActive = hasSubscriptionAccess(row, now);
  const isFreeTrial = row.planType === TRIAL_PLAN;
  // A free trial without a card is never billed; a cancelling subscription is not billed again.
  const billed = isActive && !isFreeTrial && !row.cancelAtPeriodEnd;
  const nextBilling = status === 'trialing' ? row.trialEnd : row.currentPeriodEnd;
  return {
    isActive,
    planType: row.planType,
    status,
    nextBillingDate: billed && nextBilling ? nextBilling.toISOString() : null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    canCancel: isActive || status === 'past_due',
    trialEnd: row.trialEnd?.toISOString() ?? null,
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    canSubscribe: !isActive || isFreeTrial,
    plan,
  };
}

/** GET /api/payment/subscription/status */
export async function getSubscriptionStatus(deps: Deps, userId: string): Promise<SubscriptionStatusDto> {
  const row = await subscriptionOf(deps, userId);
  const settled = row ? await settleLocal(deps, row) : null;
  return toStatusDto(deps.config, settled, deps.clock.now());
}

/** Applies what Stripe reports about a subscription onto the row. */
function stripeValues(state: SubscriptionState) {
  return {
    status: state.status,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    trialEnd: state.trialEnd,
    currentPeriodEnd: state.currentPeriodEnd,
    providerSubscriptionId: state.providerSubscriptionId,
    provider: 'stripe',
  };
}

/**
 * POST /api/payment/subscription/cancel. Immediate: access ends now (status canceled). End of period:
 * cancel_at_period_end, access continues until the period (or trial) ends ("Cancelling"). A Stripe
 * subscription is cancelled at Stripe first (DELETE /v1/subscriptions/:id or cancel_at_period_end=true).
 */
export async function cancelSubscription(
  deps: Deps,
  payments: Payments,
  userId: string,
  cancelType: CancelType,
): Promise<{ message: string; status: SubscriptionStatusDto }> {
  const found = await subscriptionOf(deps, userId);
  if (!found) throw notFound(M.noSubscription);
  const row = await settleLocal(deps, found);
  const now = deps.clock.now();
  if (!toStatusDto(deps.config, row, now).canCancel) throw conflict(M.cannotCancel);
  let set: Partial<SubscriptionRow>;
  if (row.provider === 'stripe' && row.providerSubscriptionId) {
    if (!payments.stripe) throw new AppError(503, 'payment_provider', M.providerFailed);
    const state =
      cancelType === 'immediate'
        ? await payments.stripe.cancelNow(row.providerSubscriptionId)
        : await payments.stripe.cancelAtPeriodEnd(row.providerSubscriptionId);
    set = stripeValues(state);
  } else if (cancelType === 'immediate') {
    set = {
      status: 'canceled',
      cancelAtPeriodEnd: false,
      currentPeriodEnd: now,
      ...(row.status === 'trialing' ? { trialEnd: now } : {}),
    };
  } else {
    set = { cancelAtPeriodEnd: true };
  }
  const [updated] = await deps.db
    .update(subscriptions)
    .set({ ...set, updatedAt: now })
    .where(eq(subscriptions.id, row.id))
    .returning();
  return {
    message: cancelType === 'immediate' ? M.subscriptionCancelledNow : M.subscriptionCancelsAtPeriodEnd,
    status: toStatusDto(deps.config, updated ?? row, now),
  };
}

/**
 * POST /api/payment/subscription/checkout: the subscribe flow for users whose trial ended or who
 * cancelled (or who subscribe early during the free trial: the remaining trial days stay free).
 */
export async function startSubscriptionCheckout(
  deps: Deps,
  payments: Payments,
  userId: string,
  body: { successUrl?: string; cancelUrl?: string },
): Promise<{ url: string; orderId: string }> {
  const found = await subscriptionOf(deps, userId);
  const row = found ? await settleLocal(deps, found) : null;
  const now = deps.clock.now();
  if (!toStatusDto(deps.config, row, now).canSubscribe) throw conflict(M.alreadySubscribed);
  let trialDays: number | null = null;
  if (!row) trialDays = TRIAL_DAYS;
  else if (row.planType === TRIAL_PLAN && hasSubscriptionAccess(row, now) && row.trialEnd)
    trialDays = Math.max(1, Math.ceil((row.trialEnd.getTime() - now.getTime()) / DAY_MS));
  return startCheckout(deps, payments, userId, {
    kind: 'subscription',
    amountCents: deps.config.SUBSCRIPTION_PRICE_CENTS,
    planType: deps.config.SUBSCRIPTION_PLAN_TYPE,
    successUrl: body.successUrl ?? PAYMENT_RETURN_URLS.subscription.success,
    cancelUrl: body.cancelUrl ?? PAYMENT_RETURN_URLS.subscription.cancel,
    productName: SUBSCRIPTION_PLAN.displayName,
    trialDays,
  });
}

/** GET /api/credits/history: the user's credit ledger, newest first. */
export async function creditHistory(
  deps: Pick<AppContext, 'db'>,
  userId: string,
  page: { limit: number; offset: number },
): Promise<CreditHistory> {
  const [rows, [{ total }], [user]] = await Promise.all([
    deps.db
      .select()
      .from(creditTransactions)
      .where(eq(creditTransactions.userId, userId))
      .orderBy(desc(creditTransactions.createdAt), desc(creditTransactions.id))
      .limit(page.limit)
      .offset(page.offset),
    deps.db.select({ total: count() }).from(creditTransactions).where(eq(creditTransactions.userId, userId)),
    deps.db.select({ credits: users.credits }).from(users).where(eq(users.id, userId)),
  ]);
  return {
    transactions: rows.map(
      (r): CreditTransactionDto => ({
        id: r.id,
        description: r.description,
        source: r.source,
        generationType: r.generationType,
        createdAt: r.createdAt.toISOString(),
        type: r.type,
        amount: r.amount,
        balanceAfter: r.balanceAfter,
      }),
    ),
    balance: user?.credits ?? 0,
    pagination: { offset: page.offset, limit: page.limit, hasMore: page.offset + rows.length < total, total },
  };
}

/** An order of the user (404 for anyone else's or an unknown id). */
export async function getOwnOrder(deps: Pick<AppContext, 'db'>, userId: string, orderId: string): Promise<OrderRow> {
  const [order] = await deps.db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId));
  if (!order || order.userId !== userId) throw notFound(M.orderNotFound);
  return order;
}

/** The local checkout's Cancel: open → cancelled (nothing granted). False when the order was not open. */
export async function cancelOpenOrder(deps: Pick<AppContext, 'db' | 'clock'>, orderId: string): Promise<boolean> {
  const now = deps.clock.now();
  const rows = await deps.db
    .update(paymentOrders)
    .set({ status: 'cancelled', updatedAt: now })
    .where(and(eq(paymentOrders.id, orderId), eq(paymentOrders.status, 'open')))
    .returning({ id: paymentOrders.id });
  return rows.length > 0;
}

/** The end of the user's running free trial, if any (a subscription bought now starts billing then). */
export async function runningTrialEnd(deps: Pick<AppContext, 'db' | 'clock'>, userId: string): Promise<Date | null> {
  const row = await subscriptionOf(deps, userId);
  if (!row || row.planType !== TRIAL_PLAN || !hasSubscriptionAccess(row, deps.clock.now())) return null;
  return row.trialEnd;
}
