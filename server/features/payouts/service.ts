// Creator payouts (issue 21.4; docs/payments.md "Payouts"): a creator asks for part of their earnings
// to be paid to their primary bank account. The amount leaves earnings (a `payout` debit) in the same
// transaction as the payout row, so a balance can never be paid out twice; a payout that ends without
// being paid (cancelled, failed) puts it back with a `payout_return` credit, once.

import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { centsToEuros, eurosToCents, formatEuros } from '../../../common/api/money.ts';
import { PAYOUT_LIMITS, type PayoutMethod } from '../../../common/api/payments.constants.ts';
import type { AdminPayoutDto, adminPayoutsQuery, PayoutDto, PayoutsOverview } from '../../../common/api/payouts.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { bankAccounts, creatorStripeAccounts, payouts, users } from '../../db/schema/index.ts';
import { announceAccountChange } from '../../platform/auth/account-changes.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { AppError, conflict, notFound } from '../../platform/errors.ts';
import { creditMoney, debitMoney, moneyBalance } from '../../platform/money/ledger.ts';
import { maskIban } from '../account/bank-accounts.ts';
import { audit } from '../admin/service.ts';
import { page } from '../directory/cards.ts';
import { deliverNotifications, recordNotification } from '../notifications/service.ts';
import type { PayoutTransfers, StripeConnect } from './stripe-transfers.ts';

type PayoutRow = typeof payouts.$inferSelect;
export type PayoutDeps = Pick<AppContext, 'db' | 'clock' | 'log' | 'mail' | 'config'> & {
  transfers: PayoutTransfers | null;
  /** Stripe Connect onboarding and reversals; null without Stripe (the studio pays by hand). */
  connect: StripeConnect | null;
};
const m = MESSAGES.payouts;
const OPEN = ['pending', 'processing'] as const;

function destinationOf(row: Pick<PayoutRow, 'accountHolderName' | 'iban' | 'bankName'>) {
  return {
    accountHolderName: row.accountHolderName,
    iban: maskIban(row.iban),
    ibanLast4: row.iban.slice(-4),
    bankName: row.bankName,
  };
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

function toDto(row: PayoutRow): PayoutDto {
  return {
    id: row.id,
    amount: centsToEuros(row.amountCents),
    amountCents: row.amountCents,
    currency: row.currency,
    status: row.status,
    method: row.method,
    destination: destinationOf(row),
    reference: row.reference ?? row.stripeTransferId,
    failureReason: row.failureReason,
    transferredAt: iso(row.transferredAt),
    createdAt: row.createdAt.toISOString(),
    paidAt: iso(row.paidAt),
    failedAt: iso(row.failedAt),
    cancelledAt: iso(row.cancelledAt),
  };
}

function toAdminDto(row: PayoutRow, creator: { id: string; email: string; firstName: string; lastName: string }) {
  return {
    ...toDto(row),
    creator: { id: creator.id, email: creator.email, name: `${creator.firstName} ${creator.lastName}`.trim() },
    fullIban: row.iban,
    bicSwift: row.bicSwift,
    stripeAccountId: row.stripeAccountId,
  } satisfies AdminPayoutDto;
}

async function primaryAccount(db: DbOrTx, userId: string) {
  const [row] = await db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.userId, userId), eq(bankAccounts.isPrimary, true)))
    .limit(1);
  return row ?? null;
}

async function openPayout(db: DbOrTx, userId: string): Promise<PayoutRow | null> {
  const [row] = await db
    .select()
    .from(payouts)
    .where(and(eq(payouts.userId, userId), inArray(payouts.status, OPEN)))
    .limit(1);
  return row ?? null;
}

/**
 * The creator's connected account when Stripe is configured, and whether it can be paid out now: an account
 * whose status Stripe reported (onboarding return, account.updated) needs payouts_enabled; an id an admin
 * typed (never read from Stripe) is tried, and Stripe refuses the transfer if it cannot take it.
 */
async function stripeAccountOf(
  deps: PayoutDeps,
  db: DbOrTx,
  userId: string,
): Promise<{ id: string; ready: boolean } | null> {
  if (!deps.transfers) return null;
  const [row] = await db
    .select({
      id: creatorStripeAccounts.stripeAccountId,
      payoutsEnabled: creatorStripeAccounts.payoutsEnabled,
      syncedAt: creatorStripeAccounts.statusSyncedAt,
    })
    .from(creatorStripeAccounts)
    .where(eq(creatorStripeAccounts.userId, userId));
  return row ? { id: row.id, ready: row.payoutsEnabled || row.syncedAt === null } : null;
}

/** GET /api/creators/payouts: the creator's payouts, newest first, and whether one can be asked for now. */
export async function payoutOverview(deps: PayoutDeps, userId: string): Promise<PayoutsOverview> {
  const [availableCents, primary, rows, stripeAccount] = await Promise.all([
    moneyBalance(deps.db, userId, 'earnings'),
    primaryAccount(deps.db, userId),
    deps.db.select().from(payouts).where(eq(payouts.userId, userId)).orderBy(desc(payouts.createdAt), desc(payouts.id)),
    stripeAccountOf(deps, deps.db, userId),
  ]);
  const open = rows.some((row) => row.status === 'pending' || row.status === 'processing');
  const blockedReason = !primary
    ? m.noPrimaryBankAccount
    : open
      ? m.onePending
      : stripeAccount && !stripeAccount.ready
        ? m.connectIncomplete
        : availableCents < PAYOUT_LIMITS.minEuros * 100
          ? m.belowMinimum
          : null;
  return {
    availableEarnings: centsToEuros(availableCents),
    availableEarningsCents: availableCents,
    minimumAmount: PAYOUT_LIMITS.minEuros,
    destination: primary ? destinationOf(primary) : null,
    blockedReason,
    method: stripeAccount ? 'stripe' : 'manual',
    studioMode: deps.transfers ? 'stripe' : 'manual',
    payouts: rows.map(toDto),
  };
}

function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if ('code' in e && e.code === '23505') {
      const name = 'constraint' in e ? e.constraint : undefined;
      return name === constraint || String((e as { message?: unknown }).message).includes(constraint);
    }
    e = 'cause' in e ? e.cause : undefined;
  }
  return false;
}

/**
 * POST /api/creators/payouts. Under the creator's row lock: one open payout at a time (409), a primary
 * bank account (400), an amount the earnings cover (400); then the payout row and its `payout` debit
 * commit together. With Stripe configured and a connected account, the transfer is sent afterwards.
 */
export async function requestPayout(
  deps: PayoutDeps,
  userId: string,
  amountEuros: number,
  idempotencyKey: string | undefined,
): Promise<{ payout: PayoutDto; created: boolean }> {
  const amountCents = eurosToCents(amountEuros);
  const now = deps.clock.now();
  let result: { row: PayoutRow; created: boolean };
  try {
    result = await deps.db.transaction(async (tx) => {
      const [me] = await tx
        .select({ earnings: users.earningsCents })
        .from(users)
        .where(eq(users.id, userId))
        .for('update');
      if (!me) throw notFound(MESSAGES.generic.notFound);
      if (idempotencyKey) {
        const [same] = await tx
          .select()
          .from(payouts)
          .where(and(eq(payouts.userId, userId), eq(payouts.idempotencyKey, idempotencyKey)));
        if (same) return { row: same, created: false };
      }
      if (await openPayout(tx, userId)) throw conflict(m.onePending);
      const primary = await primaryAccount(tx, userId);
      if (!primary) throw new AppError(400, 'no_bank_account', m.noPrimaryBankAccount);
      if (amountCents > me.earnings) {
        throw new AppError(400, 'above_earnings', m.aboveEarnings, {
          requestedCents: amountCents,
          availableCents: me.earnings,
        });
      }
      const stripeAccount = await stripeAccountOf(deps, tx, userId);
      if (stripeAccount && !stripeAccount.ready) throw new AppError(400, 'connect_incomplete', m.connectIncomplete);
      const method: PayoutMethod = stripeAccount ? 'stripe' : 'manual';
      const [row] = await tx
        .insert(payouts)
        .values({
          userId,
          amountCents,
          status: method === 'stripe' ? 'processing' : 'pending',
          method,
          bankAccountId: primary.id,
          accountHolderName: primary.accountHolderName,
          iban: primary.iban,
          bicSwift: primary.bicSwift,
          bankName: primary.bankName,
          stripeAccountId: stripeAccount?.id ?? null,
          idempotencyKey: idempotencyKey ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await debitMoney(tx, {
        userId,
        account: 'earnings',
        amountCents,
        source: 'payout',
        referenceId: row.id,
        description: `Payout to bank account ending ${primary.iban.slice(-4)}`,
      });
      return { row, created: true };
    });
  } catch (error) {
    // Two requests that passed the checks at once: the partial unique index lets one payout open.
    if (isUniqueViolation(error, 'payouts_one_open')) throw conflict(m.onePending);
    throw error;
  }
  let { row } = result;
  if (result.created && row.method === 'stripe') row = await sendTransfer(deps, row);
  return { payout: toDto(row), created: result.created };
}

const BILLING_PATH = '/dashboard?account=billing';

/** Tells the creator their payout was paid or failed (in the transaction that decided it), and their open pages. */
export async function recordPayoutOutcome(tx: DbOrTx, row: PayoutRow, now: Date): Promise<void> {
  await announceAccountChange(tx, row.userId);
  const amount = formatEuros(row.amountCents);
  if (row.status === 'paid') {
    const where =
      row.method === 'stripe'
        ? 'was paid out by Stripe to your bank account'
        : `was paid to the bank account ending in ${row.iban.slice(-4)}${row.reference ? ` (reference ${row.reference})` : ''}`;
    return recordNotification(tx, now, {
      userId: row.userId,
      kind: 'payout.paid',
      subject: `Your payout of ${amount} has been paid`,
      lines: [`${amount} from your earnings ${where}.`],
      path: BILLING_PATH,
    });
  }
  return recordNotification(tx, now, {
    userId: row.userId,
    kind: 'payout.failed',
    subject: `Your payout of ${amount} could not be paid`,
    lines: [
      `Your payout of ${amount} failed${row.failureReason ? `: ${row.failureReason}` : '.'}`,
      'The amount is back in your earnings; check your bank account and request the payout again.',
    ],
    path: BILLING_PATH,
  });
}

/** Ends an open payout without paying it: status, then the money back to earnings (once per payout). */
export async function endUnpaid(
  tx: Db,
  row: PayoutRow,
  change: {
    status: 'failed' | 'cancelled';
    reason: string | null;
    by: string | null;
    stripePayoutId?: string;
    failureCode?: string | null;
  },
  now: Date,
): Promise<PayoutRow> {
  const [updated] = await tx
    .update(payouts)
    .set({
      status: change.status,
      failureReason: change.reason,
      decidedByUserId: change.by,
      ...(change.stripePayoutId ? { stripePayoutId: change.stripePayoutId } : {}),
      ...(change.failureCode !== undefined ? { failureCode: change.failureCode } : {}),
      ...(change.status === 'failed' ? { failedAt: now } : { cancelledAt: now }),
      updatedAt: now,
    })
    .where(eq(payouts.id, row.id))
    .returning();
  await creditMoney(tx, {
    userId: row.userId,
    account: 'earnings',
    amountCents: row.amountCents,
    source: 'payout_return',
    referenceId: row.id,
    description: change.status === 'failed' ? 'Payout failed: amount returned' : 'Payout cancelled: amount returned',
  });
  return updated;
}

/**
 * The Stripe Connect transfer of a processing payout. Sent: it stays `processing` with its transfer id
 * until the connected account's payout.paid / payout.failed (connect.ts). Refused: failed, money back.
 */
async function sendTransfer(deps: PayoutDeps, row: PayoutRow): Promise<PayoutRow> {
  if (!deps.transfers || !row.stripeAccountId) return row;
  const outcome = await deps.transfers.send({
    payoutId: row.id,
    userId: row.userId,
    amountCents: row.amountCents,
    destination: row.stripeAccountId,
  });
  const now = deps.clock.now();
  if (outcome.kind === 'unknown') {
    // The transfer may exist: the payout stays processing until an admin retries it (same idempotency key).
    deps.log.warn({ payoutId: row.id, detail: outcome.message }, 'payout transfer unanswered; left processing');
    return row;
  }
  const ended = await deps.db.transaction(async (tx) => {
    const [current] = await tx.select().from(payouts).where(eq(payouts.id, row.id)).for('update');
    if (current?.status !== 'processing' || current.stripeTransferId) return { row: current ?? row, told: false };
    if (outcome.kind === 'sent') {
      const [sent] = await tx
        .update(payouts)
        .set({ stripeTransferId: outcome.transferId, transferredAt: now, updatedAt: now })
        .where(eq(payouts.id, row.id))
        .returning();
      await announceAccountChange(tx, row.userId);
      return { row: sent, told: false };
    }
    deps.log.warn({ payoutId: row.id, detail: outcome.message }, 'payout transfer refused by Stripe');
    const failed = await endUnpaid(tx, current, { status: 'failed', reason: m.transferFailed, by: null }, now);
    await recordPayoutOutcome(tx, failed, now);
    return { row: failed, told: true };
  });
  if (ended.told) await deliverNotifications(deps, row.userId);
  return ended.row;
}

/**
 * Stripe `transfer.reversed` (a platform webhook, handled in the event's transaction): a payout whose
 * transfer was reversed in full is failed and its amount returned to earnings, once. A partial reversal
 * is only logged: an admin settles it by hand.
 */
export async function applyTransferReversal(
  tx: Db,
  deps: Pick<AppContext, 'clock' | 'log'>,
  transfer: Record<string, unknown>,
): Promise<void> {
  const transferId = String(transfer.id ?? '');
  const [row] = await tx.select().from(payouts).where(eq(payouts.stripeTransferId, transferId)).for('update');
  if (!row) {
    deps.log.warn({ transferId }, 'stripe transfer.reversed matches no payout');
    return;
  }
  if (row.status !== 'paid' && row.status !== 'processing') return;
  if (transfer.reversed !== true) {
    deps.log.warn({ transferId, payoutId: row.id }, 'payout transfer partly reversed; settle it by hand');
    return;
  }
  const now = deps.clock.now();
  await recordPayoutOutcome(
    tx,
    await endUnpaid(tx, row, { status: 'failed', reason: m.transferReversed, by: null }, now),
    now,
  );
}

async function lockedPayout(tx: Tx, id: string, userId?: string): Promise<PayoutRow> {
  const where = userId ? and(eq(payouts.id, id), eq(payouts.userId, userId)) : eq(payouts.id, id);
  const [row] = await tx.select().from(payouts).where(where).for('update');
  if (!row) throw notFound(m.notFound);
  return row;
}

/** POST /api/creators/payouts/:id/cancel: a pending manual payout only; the amount returns to earnings. */
export async function cancelPayout(deps: PayoutDeps, userId: string, id: string): Promise<PayoutDto> {
  const now = deps.clock.now();
  const row = await deps.db.transaction(async (tx) => {
    const payout = await lockedPayout(tx, id, userId);
    if (payout.status !== 'pending' || payout.method !== 'manual') throw conflict(m.notCancellable);
    return endUnpaid(tx, payout, { status: 'cancelled', reason: null, by: null }, now);
  });
  return toDto(row);
}

async function adminRow(db: DbOrTx, row: PayoutRow): Promise<AdminPayoutDto> {
  const [creator] = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, row.userId));
  return toAdminDto(row, creator);
}

/** GET /api/admin/payouts: every payout (or one status), newest first, with what is needed to pay it. */
export async function adminListPayouts(
  deps: Pick<PayoutDeps, 'db' | 'transfers'>,
  query: z.output<typeof adminPayoutsQuery>,
): Promise<{ data: AdminPayoutDto[]; pagination: ReturnType<typeof page>; studioMode: PayoutMethod }> {
  const where = query.status ? eq(payouts.status, query.status) : undefined;
  const [rows, [total]] = await Promise.all([
    deps.db
      .select({
        payout: payouts,
        creator: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName },
      })
      .from(payouts)
      .innerJoin(users, eq(users.id, payouts.userId))
      .where(where)
      .orderBy(desc(payouts.createdAt), desc(payouts.id))
      .limit(query.limit)
      .offset(query.offset),
    deps.db.select({ n: count() }).from(payouts).where(where),
  ]);
  return {
    data: rows.map((r) => toAdminDto(r.payout, r.creator)),
    pagination: page(Number(total?.n ?? 0), query.offset, query.limit),
    studioMode: deps.transfers ? 'stripe' : 'manual',
  };
}

/** Admin decisions on a pending manual payout, each with its audit row in the same transaction. */
export async function markPayout(
  deps: PayoutDeps,
  admin: UserRow,
  id: string,
  decision: { paid: true; reference: string } | { paid: false; reason: string },
): Promise<AdminPayoutDto> {
  const now = deps.clock.now();
  const decided = await deps.db.transaction(async (tx) => {
    const payout = await lockedPayout(tx, id);
    if (payout.status !== 'pending' || payout.method !== 'manual') throw conflict(m.notManualPending);
    let row: PayoutRow;
    if (decision.paid) {
      [row] = await tx
        .update(payouts)
        .set({ status: 'paid', reference: decision.reference, decidedByUserId: admin.id, paidAt: now, updatedAt: now })
        .where(eq(payouts.id, id))
        .returning();
    } else {
      row = await endUnpaid(tx, payout, { status: 'failed', reason: decision.reason, by: admin.id }, now);
    }
    const adminDto = await adminRow(tx, row);
    await audit(
      tx,
      admin,
      {
        action: decision.paid ? 'payout.mark_paid' : 'payout.mark_failed',
        targetType: 'payout',
        targetId: id,
        details: {
          email: adminDto.creator.email,
          amountCents: row.amountCents,
          ibanLast4: row.iban.slice(-4),
          ...(decision.paid ? { reference: decision.reference } : { reason: decision.reason }),
        },
      },
      now,
    );
    await recordPayoutOutcome(tx, row, now);
    return { adminDto, creatorId: row.userId };
  });
  await deliverNotifications(deps, decided.creatorId);
  return decided.adminDto;
}

/** POST /api/admin/payouts/:id/retry-transfer: a Stripe payout left processing asks Stripe again. */
export async function retryTransfer(deps: PayoutDeps, admin: UserRow, id: string): Promise<AdminPayoutDto> {
  const [row] = await deps.db.select().from(payouts).where(eq(payouts.id, id));
  if (!row) throw notFound(m.notFound);
  if (row.method !== 'stripe' || row.status !== 'processing' || row.stripeTransferId || !deps.transfers)
    throw conflict(m.notProcessing);
  await deps.db.transaction((tx) =>
    audit(
      tx,
      admin,
      {
        action: 'payout.retry_transfer',
        targetType: 'payout',
        targetId: id,
        details: { amountCents: row.amountCents },
      },
      deps.clock.now(),
    ),
  );
  return adminRow(deps.db, await sendTransfer(deps, row));
}

/** PUT /api/admin/creators/:id/stripe-account: where this creator's payouts go when Stripe is configured. */
export async function setStripeAccount(
  deps: PayoutDeps,
  admin: UserRow,
  userId: string,
  stripeAccountId: string,
): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const [creator] = await tx.select({ role: users.role, email: users.email }).from(users).where(eq(users.id, userId));
    if (creator?.role !== 'creator') throw notFound(m.creatorNotFound);
    await tx
      .insert(creatorStripeAccounts)
      .values({ userId, stripeAccountId, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: creatorStripeAccounts.userId, set: { stripeAccountId, updatedAt: now } });
    await announceAccountChange(tx, userId);
    await audit(
      tx,
      admin,
      {
        action: 'payout.stripe_account',
        targetType: 'user',
        targetId: userId,
        details: { email: creator.email, stripeAccountId },
      },
      now,
    );
  });
}
