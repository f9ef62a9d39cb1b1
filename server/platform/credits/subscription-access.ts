import { eq } from 'drizzle-orm';
import {
  SUBSCRIPTION_ACCESS_STATUSES,
  type SubscriptionStatus,
  TRIAL_PLAN,
} from '../../../common/api/auth.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { Db } from '../../db/client.ts';
import { subscriptions, users } from '../../db/schema/index.ts';
import { assertEmailVerified } from '../auth/session.ts';
import { forbidden, notFound } from '../errors.ts';

/** What the access rule reads of a `subscriptions` row. */
export type SubscriptionAccessRow = Pick<
  typeof subscriptions.$inferSelect,
  'status' | 'trialEnd' | 'currentPeriodEnd' | 'provider'
>;

/**
 * Access-bearing: trialing (with a trial end still ahead) or active, within the paid period for local
 * rows (the renewal sweep of features/payments/renewal.ts moves it on; Stripe rows change through
 * Stripe's webhooks).
 */
export function hasSubscriptionAccess(row: SubscriptionAccessRow, now: Date): boolean {
  const status = row.status as SubscriptionStatus;
  if (!SUBSCRIPTION_ACCESS_STATUSES.includes(status)) return false;
  if (status === 'trialing' && (row.trialEnd === null || row.trialEnd.getTime() <= now.getTime())) return false;
  if (row.provider === 'local' && status === 'active' && row.currentPeriodEnd && row.currentPeriodEnd <= now)
    return false;
  return true;
}

/**
 * The status a local subscription has once its end has passed, whether or not the renewal sweep or a read has
 * written it yet: a cancelling one is canceled, a paid one past_due (the sweep still renews it), and the card-less
 * free trial paused, as Stripe pauses a trial that ends without a payment method. Stripe rows are as Stripe said.
 */
export function settledSubscriptionStatus(
  row: SubscriptionAccessRow & Pick<typeof subscriptions.$inferSelect, 'planType' | 'cancelAtPeriodEnd'>,
  now: Date,
): string {
  if (row.provider !== 'local' || row.status === 'canceled' || hasSubscriptionAccess(row, now)) return row.status;
  const ended = row.status === 'active' ? row.currentPeriodEnd : row.status === 'trialing' ? row.trialEnd : null;
  if (!ended || ended > now) return row.status;
  if (row.cancelAtPeriodEnd) return 'canceled';
  if (row.status === 'active') return 'past_due';
  if (row.status === 'trialing' && row.planType === TRIAL_PLAN) return 'paused';
  return row.status;
}

const subscriptionRequired = () => forbidden(MESSAGES.subscription.required, 'subscription_required');

/**
 * The dashboard's rule on the server, for spending credits and for the free text agents alike: a verified
 * email address (403 `email_not_verified`) and subscription access — admins are exempt from the latter,
 * as the dashboard lets them in without one (403 `subscription_required`).
 */
export async function assertStudioAccess(db: Db, userId: string, now: Date): Promise<void> {
  const [row] = await db
    .select({ role: users.role, isVerified: users.isVerified, subscription: subscriptions })
    .from(users)
    .leftJoin(subscriptions, eq(subscriptions.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw notFound('User not found');
  assertEmailVerified(row);
  if (row.role === 'admin') return;
  if (row.subscription && hasSubscriptionAccess(row.subscription, now)) return;
  throw subscriptionRequired();
}
