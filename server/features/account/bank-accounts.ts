import { and, asc, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { BANK_ACCOUNT_LIMITS } from '../../../common/api/account.constants.ts';
import type { BankAccount, createBankAccountBody } from '../../../common/api/account.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { bicError, ibanError, normalizeBic, normalizeIban } from '../../../common/rules/bank-accounts.ts';
import type { AppContext } from '../../context.ts';
import type { DbOrTx } from '../../db/client.ts';
import { bankAccounts } from '../../db/schema/index.ts';
import { announceAccountChange } from '../../platform/auth/account-changes.ts';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.ts';

type Deps = Pick<AppContext, 'db' | 'clock'>;
type BankAccountRow = typeof bankAccounts.$inferSelect;
const m = MESSAGES.account;

/** 400 with the shared rule's message: `invalid_iban` once the IBAN is there and within 34 characters. */
function assertValidIban(iban: string): void {
  const error = ibanError(iban);
  if (!error) return;
  if (error.key === 'ibanRequired' || error.key === 'ibanTooLong') throw badRequest(error.message);
  throw new AppError(400, 'invalid_iban', error.message);
}

function assertValidBic(bic: string): void {
  const message = bicError(bic);
  if (message) throw new AppError(400, 'invalid_bic', message);
}

/** Country code and last four kept, the rest masked, in print groups of four: DE** **** **** **** **30 00. */
export function maskIban(iban: string): string {
  const visibleTail = 4;
  const masked = [...iban].map((ch, i) => (i < 2 || i >= iban.length - visibleTail ? ch : '*')).join('');
  return masked.replace(/(.{4})(?=.)/g, '$1 ');
}

function toBankAccount(row: BankAccountRow): BankAccount {
  return {
    id: row.id,
    accountHolderName: row.accountHolderName,
    account_holder_name: row.accountHolderName,
    iban: maskIban(row.iban),
    ibanLast4: row.iban.slice(-4),
    country: row.iban.slice(0, 2),
    bicSwift: row.bicSwift,
    bankName: row.bankName,
    is_primary: row.isPrimary,
    is_verified: row.isVerified,
    created_at: row.createdAt.toISOString(),
  };
}

/** Primary first, then oldest first. */
export async function listBankAccounts(db: DbOrTx, userId: string): Promise<BankAccount[]> {
  const rows = await db
    .select()
    .from(bankAccounts)
    .where(eq(bankAccounts.userId, userId))
    .orderBy(desc(bankAccounts.isPrimary), asc(bankAccounts.createdAt), asc(bankAccounts.id));
  return rows.map(toBankAccount);
}

/**
 * Adds an account. The first one is always primary; `is_primary: true` moves primary to the new one.
 * The same IBAN twice for one user answers 409.
 */
export async function addBankAccount(
  deps: Deps,
  userId: string,
  body: z.output<typeof createBankAccountBody>,
): Promise<BankAccount> {
  const iban = normalizeIban(body.iban);
  assertValidIban(iban);
  const bic = body.bicSwift ? normalizeBic(body.bicSwift) : null;
  if (bic) assertValidBic(bic);
  const now = deps.clock.now();
  // Two first accounts added at the same moment both want primary: the partial unique index lets
  // one win, and the other is retried (it then sees the primary and is added without it).
  for (let attempt = 1; ; attempt++) {
    try {
      return toBankAccount(await insertAccount(deps, userId, body, iban, bic, now));
    } catch (error) {
      if (attempt >= 2 || !isUniqueViolation(error)) throw error;
    }
  }
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (typeof e !== 'object') return false;
    if ('code' in e && e.code === '23505') return true;
    e = 'cause' in e ? e.cause : undefined;
  }
  return false;
}

async function insertAccount(
  deps: Deps,
  userId: string,
  body: z.output<typeof createBankAccountBody>,
  iban: string,
  bic: string | null,
  now: Date,
): Promise<BankAccountRow> {
  return deps.db.transaction(async (tx) => {
    const existing = await tx
      .select({ iban: bankAccounts.iban, isPrimary: bankAccounts.isPrimary })
      .from(bankAccounts)
      .where(eq(bankAccounts.userId, userId));
    if (existing.some((a) => a.iban === iban)) throw conflict(m.bankAccountExists);
    if (existing.length >= BANK_ACCOUNT_LIMITS.maxAccounts) {
      throw badRequest(m.tooManyBankAccounts(BANK_ACCOUNT_LIMITS.maxAccounts));
    }
    const makePrimary = body.is_primary === true || !existing.some((a) => a.isPrimary);
    if (makePrimary) {
      await tx
        .update(bankAccounts)
        .set({ isPrimary: false, updatedAt: now })
        .where(and(eq(bankAccounts.userId, userId), eq(bankAccounts.isPrimary, true)));
    }
    const [inserted] = await tx
      .insert(bankAccounts)
      .values({
        userId,
        accountHolderName: body.accountHolderName,
        iban,
        bicSwift: bic,
        bankName: body.bankName ?? null,
        isPrimary: makePrimary,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await announceAccountChange(tx, userId);
    return inserted;
  });
}

async function ownedRow(db: DbOrTx, userId: string, id: string): Promise<BankAccountRow> {
  const [row] = await db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.id, id), eq(bankAccounts.userId, userId)))
    .limit(1);
  if (!row) throw notFound(m.bankAccountNotFound);
  return row;
}

/** Makes one of the user's accounts the primary one (the others lose it first: one primary per user). */
export async function makePrimary(deps: Deps, userId: string, id: string): Promise<BankAccount[]> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const row = await ownedRow(tx, userId, id);
    if (row.isPrimary) return;
    await tx
      .update(bankAccounts)
      .set({ isPrimary: false, updatedAt: now })
      .where(and(eq(bankAccounts.userId, userId), eq(bankAccounts.isPrimary, true)));
    await tx.update(bankAccounts).set({ isPrimary: true, updatedAt: now }).where(eq(bankAccounts.id, id));
    await announceAccountChange(tx, userId);
  });
  return listBankAccounts(deps.db, userId);
}

/** Deletes one of the user's accounts; when it was the primary, the oldest remaining one becomes primary. */
export async function deleteBankAccount(deps: Deps, userId: string, id: string): Promise<BankAccount[]> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const row = await ownedRow(tx, userId, id);
    await tx.delete(bankAccounts).where(eq(bankAccounts.id, row.id));
    await announceAccountChange(tx, userId);
    if (!row.isPrimary) return;
    const [next] = await tx
      .select({ id: bankAccounts.id })
      .from(bankAccounts)
      .where(eq(bankAccounts.userId, userId))
      .orderBy(asc(bankAccounts.createdAt), asc(bankAccounts.id))
      .limit(1);
    if (next)
      await tx.update(bankAccounts).set({ isPrimary: true, updatedAt: now }).where(eq(bankAccounts.id, next.id));
  });
  return listBankAccounts(deps.db, userId);
}
