// Stripe Connect for creators (issue 28.4; docs/payments.md "Stripe Connect"): the creator's own Express
// onboarding from Settings, the account's status kept current (return from onboarding, account.updated),
// and the connected account's payout events deciding whether a transferred payout was paid or failed.

import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import type { ConnectStatus } from '../../../common/api/payouts.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { bankAccounts, creatorStripeAccounts, payouts } from '../../db/schema/index.ts';
import { announceAccountChange } from '../../platform/auth/account-changes.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { AppError } from '../../platform/errors.ts';
import { endUnpaid, type PayoutDeps, recordPayoutOutcome } from './service.ts';
import { type ConnectAccountStatus, connectAccountStatus } from './stripe-transfers.ts';

const m = MESSAGES.payouts;
type AccountRow = typeof creatorStripeAccounts.$inferSelect;

/** Where Stripe sends the creator back: the Settings tab, which reads the account (return) or asks a new link (refresh). */
function onboardingUrls(publicUrl: string): { returnUrl: string; refreshUrl: string } {
  const settings = `${publicUrl}/dashboard?account=settings&stripe=`;
  return { returnUrl: `${settings}return`, refreshUrl: `${settings}refresh` };
}

function toStatus(deps: Pick<PayoutDeps, 'connect'>, row: AccountRow | undefined): ConnectStatus {
  return {
    studioMode: deps.connect ? 'stripe' : 'manual',
    account: row
      ? {
          stripeAccountId: row.stripeAccountId,
          chargesEnabled: row.chargesEnabled,
          payoutsEnabled: row.payoutsEnabled,
          detailsSubmitted: row.detailsSubmitted,
          requirementsDue: row.requirementsDue,
          disabledReason: row.disabledReason,
          statusSyncedAt: row.statusSyncedAt?.toISOString() ?? null,
        }
      : null,
  };
}

async function accountOf(db: DbOrTx, userId: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(creatorStripeAccounts).where(eq(creatorStripeAccounts.userId, userId));
  return row;
}

function providerError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new AppError(502, 'payment_provider', m.connectFailed, { provider: 'stripe', detail });
}

function requireConnect(deps: PayoutDeps): NonNullable<PayoutDeps['connect']> {
  if (!deps.connect) throw new AppError(409, 'connect_unavailable', m.connectUnavailable);
  return deps.connect;
}

/** GET /api/creators/stripe-connect: the studio's mode and the creator's account as last read from Stripe. */
export async function connectStatus(deps: PayoutDeps, userId: string): Promise<ConnectStatus> {
  return toStatus(deps, await accountOf(deps.db, userId));
}

/**
 * POST /api/creators/stripe-connect/onboarding: the creator's Express account is created once (the
 * country of their primary bank account's IBAN, their email, the transfers capability), then a new
 * Account Link is made each time (they are single-use and expire within minutes).
 */
export async function startOnboarding(
  deps: PayoutDeps,
  user: Pick<UserRow, 'id' | 'email'>,
): Promise<{ url: string; stripeAccountId: string }> {
  const connect = requireConnect(deps);
  try {
    let row = await accountOf(deps.db, user.id);
    if (!row) {
      const [primary] = await deps.db
        .select({ iban: bankAccounts.iban })
        .from(bankAccounts)
        .where(and(eq(bankAccounts.userId, user.id), eq(bankAccounts.isPrimary, true)));
      const country = primary ? primary.iban.slice(0, 2).toUpperCase() : null;
      const stripeAccountId = await connect.createExpressAccount({ userId: user.id, email: user.email, country });
      const now = deps.clock.now();
      await deps.db
        .insert(creatorStripeAccounts)
        .values({ userId: user.id, stripeAccountId, createdAt: now, updatedAt: now })
        .onConflictDoNothing({ target: creatorStripeAccounts.userId });
      row = await accountOf(deps.db, user.id);
      if (!row) throw new Error('connected account row missing after insert');
    }
    const url = await connect.onboardingLink({
      account: row.stripeAccountId,
      ...onboardingUrls(deps.config.publicUrl),
    });
    return { url, stripeAccountId: row.stripeAccountId };
  } catch (error) {
    throw providerError(error);
  }
}

async function storeStatus(db: DbOrTx, status: ConnectAccountStatus, now: Date): Promise<AccountRow | undefined> {
  const [row] = await db
    .update(creatorStripeAccounts)
    .set({
      chargesEnabled: status.chargesEnabled,
      payoutsEnabled: status.payoutsEnabled,
      detailsSubmitted: status.detailsSubmitted,
      requirementsDue: status.requirementsDue,
      disabledReason: status.disabledReason,
      statusSyncedAt: now,
      updatedAt: now,
    })
    .where(eq(creatorStripeAccounts.stripeAccountId, status.stripeAccountId))
    .returning();
  if (row) await announceAccountChange(db, row.userId);
  return row;
}

/** POST /api/creators/stripe-connect/refresh (the onboarding return): reads the account from Stripe and keeps it. */
export async function refreshConnectStatus(deps: PayoutDeps, userId: string): Promise<ConnectStatus> {
  const connect = requireConnect(deps);
  const row = await accountOf(deps.db, userId);
  if (!row) throw new AppError(409, 'connect_not_started', m.connectNotStarted);
  let status: ConnectAccountStatus;
  try {
    status = await connect.retrieve(row.stripeAccountId);
  } catch (error) {
    throw providerError(error);
  }
  return toStatus(deps, await storeStatus(deps.db, status, deps.clock.now()));
}

type EventDeps = Pick<AppContext, 'clock' | 'log'>;

/** account.updated (a connected-account event): the stored status follows Stripe's. */
export async function applyAccountUpdated(tx: Db, deps: EventDeps, account: Record<string, unknown>): Promise<void> {
  const row = await storeStatus(tx, connectAccountStatus(account), deps.clock.now());
  if (!row) deps.log.warn({ account: account.id }, 'stripe account.updated matches no creator');
}

/** A transfer to reverse after the commit: a failed bank payout's money back from the connected account. */
export interface PendingReversal {
  payoutId: string;
  transferId: string;
  amountCents: number;
}

/**
 * How a connected account's payout (po_…) is matched to our payout, in order:
 *  1. a payout already linked to it (stripe_payout_id): a payout.failed after payout.paid;
 *  2. `metadata.payout_id` on the Stripe payout, when it carries one;
 *  3. the oldest of our `processing` payouts to that account (event.account) whose transfer was sent,
 *     with the same amount and currency, transferred no later than the Stripe payout was created
 *     (+ 5 minutes for clock skew). With one open payout per creator and one account per creator this
 *     is at most one payout.
 */
async function matchPayout(tx: Db, account: string, payout: Record<string, unknown>) {
  const payoutId = String(payout.id);
  const [linked] = await tx.select().from(payouts).where(eq(payouts.stripePayoutId, payoutId)).for('update');
  if (linked) return linked;
  const metaId = (payout.metadata as Record<string, unknown> | null | undefined)?.payout_id;
  if (typeof metaId === 'string' && /^[0-9a-f-]{36}$/i.test(metaId)) {
    const [byMeta] = await tx
      .select()
      .from(payouts)
      .where(and(eq(payouts.id, metaId), eq(payouts.stripeAccountId, account)))
      .for('update');
    if (byMeta) return byMeta;
  }
  const created = typeof payout.created === 'number' ? payout.created : Number.NaN;
  if (!Number.isFinite(created) || typeof payout.amount !== 'number') return undefined;
  const [byAmount] = await tx
    .select()
    .from(payouts)
    .where(
      and(
        eq(payouts.stripeAccountId, account),
        eq(payouts.status, 'processing'),
        isNotNull(payouts.stripeTransferId),
        eq(payouts.amountCents, payout.amount),
        eq(payouts.currency, String(payout.currency ?? '').toLowerCase()),
        lte(payouts.transferredAt, new Date((created + 300) * 1000)),
      ),
    )
    .orderBy(asc(payouts.transferredAt))
    .limit(1)
    .for('update');
  return byAmount;
}

/**
 * payout.paid / payout.failed on a creator's connected account (the event's `account`), in the event's
 * transaction (the webhook records the event id in it, so a replay changes nothing):
 *  - paid: our `processing` payout → `paid` with the Stripe payout id;
 *  - failed (also after a paid, as Stripe may report): → `failed` with Stripe's failure_message and
 *    failure_code, the amount back in earnings once (the ledger's unique reference), and the transfer to
 *    reverse after the commit so the money really returns to the platform.
 */
export async function applyConnectPayout(
  tx: Db,
  deps: EventDeps,
  event: { type: 'payout.paid' | 'payout.failed'; account: string },
  object: Record<string, unknown>,
): Promise<{ userId: string; reversal: PendingReversal | null } | null> {
  const row = await matchPayout(tx, event.account, object);
  const stripePayoutId = String(object.id);
  if (!row) {
    deps.log.warn({ account: event.account, stripePayoutId }, `stripe ${event.type} matches no payout`);
    return null;
  }
  if (row.stripePayoutId && row.stripePayoutId !== stripePayoutId) return null;
  const now = deps.clock.now();
  if (event.type === 'payout.paid') {
    if (row.status !== 'processing') return null;
    const [paid] = await tx
      .update(payouts)
      .set({ status: 'paid', stripePayoutId, paidAt: now, updatedAt: now })
      .where(eq(payouts.id, row.id))
      .returning();
    await recordPayoutOutcome(tx, paid, now);
    return { userId: row.userId, reversal: null };
  }
  if (row.status !== 'processing' && row.status !== 'paid') return null;
  const reason =
    typeof object.failure_message === 'string' && object.failure_message.trim()
      ? object.failure_message
      : m.bankPayoutFailed;
  const failureCode = typeof object.failure_code === 'string' ? object.failure_code : null;
  const failed = await endUnpaid(tx, row, { status: 'failed', reason, by: null, stripePayoutId, failureCode }, now);
  await recordPayoutOutcome(tx, failed, now);
  return {
    userId: row.userId,
    reversal: row.stripeTransferId
      ? { payoutId: row.id, transferId: row.stripeTransferId, amountCents: row.amountCents }
      : null,
  };
}
