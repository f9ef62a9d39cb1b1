// Creator payouts (issue 21.4): money taken out of a creator's earnings towards their primary bank
// account, either recorded by an admin (manual) or sent as a Stripe Connect transfer.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { PAYOUT_METHODS, PAYOUT_STATUSES } from '../../../common/api/payments.constants.ts';
import { bankAccounts } from './account.ts';
import { timestamps, users } from './users.ts';

export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('eur'),
    status: text('status', { enum: PAYOUT_STATUSES }).notNull().default('pending'),
    /** manual: an admin pays by bank transfer and records it; stripe: a Connect transfer. */
    method: text('method', { enum: PAYOUT_METHODS }).notNull(),
    /** The primary bank account at request time (null once deleted); the snapshot below is what is paid. */
    bankAccountId: uuid('bank_account_id').references(() => bankAccounts.id, { onDelete: 'set null' }),
    accountHolderName: text('account_holder_name').notNull(),
    /** Electronic format; shown masked to the creator, in full to admins (who pay it). */
    iban: text('iban').notNull(),
    bicSwift: text('bic_swift'),
    bankName: text('bank_name'),
    /** Stripe mode: the connected account (acct_…) and the transfer (tr_…). */
    stripeAccountId: text('stripe_account_id'),
    stripeTransferId: text('stripe_transfer_id'),
    /** When the transfer reached the connected account (the payout then waits for that account's payout). */
    transferredAt: timestamp('transferred_at', { withTimezone: true }),
    /** The connected account's payout (po_…) that paid or failed it (payout.paid / payout.failed). */
    stripePayoutId: text('stripe_payout_id'),
    /** Stripe's failure_code of a failed bank payout (e.g. account_closed). */
    failureCode: text('failure_code'),
    /** The client's Idempotency-Key header: the same key answers the same payout. */
    idempotencyKey: text('idempotency_key'),
    /** mark-paid: the bank reference the admin gives. */
    reference: text('reference'),
    failureReason: text('failure_reason'),
    decidedByUserId: uuid('decided_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('payouts_user_idx').on(t.userId, t.createdAt),
    index('payouts_status_idx').on(t.status, t.createdAt),
    // One payout in flight per creator, enforced by the database as well as by the service.
    uniqueIndex('payouts_one_open').on(t.userId).where(sql`${t.status} in ('pending', 'processing')`),
    uniqueIndex('payouts_idempotency').on(t.userId, t.idempotencyKey),
  ],
);

/**
 * A creator's Stripe Connect account (acct_…): created by the creator's Express onboarding (or set by an
 * admin); payouts go there when Stripe is configured. The status columns are the account's as Stripe last
 * reported it (accounts.retrieve on return from onboarding, and every account.updated event).
 */
export const creatorStripeAccounts = pgTable(
  'creator_stripe_accounts',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    stripeAccountId: text('stripe_account_id').notNull(),
    chargesEnabled: boolean('charges_enabled').notNull().default(false),
    payoutsEnabled: boolean('payouts_enabled').notNull().default(false),
    detailsSubmitted: boolean('details_submitted').notNull().default(false),
    /** requirements.currently_due: what Stripe still needs from the creator. */
    requirementsDue: jsonb('requirements_due').$type<string[]>().notNull().default([]),
    /** requirements.disabled_reason, e.g. requirements.past_due; null when nothing is held back. */
    disabledReason: text('disabled_reason'),
    /** When the status columns were last read from Stripe; null until then (an id an admin typed). */
    statusSyncedAt: timestamp('status_synced_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [uniqueIndex('creator_stripe_accounts_account').on(t.stripeAccountId)],
);
