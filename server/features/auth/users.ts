import { eq, sql } from 'drizzle-orm';
import type { SubscriptionStatus } from '../../../common/api/auth.constants.ts';
import { SUBSCRIPTION_STATUSES } from '../../../common/api/auth.constants.ts';
import type { User } from '../../../common/api/auth.ts';
import type { DbOrTx } from '../../db/client.ts';
import { subscriptions, users } from '../../db/schema/index.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { hasSubscriptionAccess, settledSubscriptionStatus } from '../../platform/credits/subscription-access.ts';
import { notFound } from '../../platform/errors.ts';

export type SubscriptionRow = typeof subscriptions.$inferSelect;

function toStatus(value: string): SubscriptionStatus {
  return (SUBSCRIPTION_STATUSES as readonly string[]).includes(value) ? (value as SubscriptionStatus) : 'incomplete';
}

/** isActive: the access rule the server enforces on spending credits (hasSubscriptionAccess). */
export function summarizeSubscription(row: SubscriptionRow | null, now: Date): User['subscription'] {
  if (!row) return null;
  const status = toStatus(settledSubscriptionStatus(row, now));
  return {
    status,
    planType: row.planType,
    isActive: hasSubscriptionAccess(row, now),
    trialEnd: row.trialEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
  };
}

/** The one serialisation of a user for every reply (the spec's User entity plus the subscription summary). */
export function toUserDto(user: UserRow, subscription: SubscriptionRow | null, now: Date): User {
  return {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    email: user.email,
    phone: user.phone,
    bio: user.bio,
    location: user.location,
    website: user.website,
    timezone: user.timezone,
    role: user.role,
    user_status: user.userStatus,
    is_verified: user.isVerified,
    credits: user.credits,
    avatar_url: user.avatarUrl,
    avatarUrl: user.avatarUrl,
    created_at: user.createdAt.toISOString(),
    subscription: summarizeSubscription(subscription, now),
  };
}

/** Reads a user and its subscription and serialises them; 404 when the user is gone. */
export async function loadUserDto(db: DbOrTx, userId: string, now: Date): Promise<User> {
  const [row] = await db
    .select({ user: users, subscription: subscriptions })
    .from(users)
    .leftJoin(subscriptions, eq(subscriptions.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw notFound();
  return toUserDto(row.user, row.subscription, now);
}

/** Emails are stored lower-cased; the unique index is on lower(email), so this lookup uses it. */
export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  return row ?? null;
}
