import { and, count, desc, eq, gte, inArray, lt, max } from 'drizzle-orm';
import ipaddr from 'ipaddr.js';
import { ACCOUNT_GUARD, AUTH_LOCKOUT, PASSWORD_RESET } from '../../../common/api/auth.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { DbOrTx } from '../../db/client.ts';
import { authAttempts } from '../../db/schema/index.ts';
import { tooManyRequests } from '../errors.ts';

type AttemptKind = (typeof authAttempts.$inferInsert)['kind'];

const WINDOW_MS = AUTH_LOCKOUT.windowMinutes * 60_000;
const GUARD_WINDOW_MS = ACCOUNT_GUARD.guardWindowHours * 3_600_000;
const RESET_REQUEST_WINDOW_MS = PASSWORD_RESET.requestWindowMinutes * 60_000;
/** Wrong reset codes per email address within AUTH_LOCKOUT.windowMinutes before further checks answer 429. */
const MAX_FAILED_RESET_CHECKS = 10;

/**
 * The client address as counted: IPv4 as it is (also when IPv4-mapped), IPv6 by its /64 prefix, since
 * one host usually holds a whole /64 and could otherwise take a fresh address for every guess.
 */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${prefix.join(':')}::/64`;
}

/**
 * What failures are counted under. Log-ins are refused per client address and per address and account,
 * never per account alone: anyone can fail an account's log-in, so a lock on the account would let anyone
 * lock its owner out. The per-account count of failed log-ins only feeds the suspicious-activity alert.
 */
const subjects = {
  account: (account: string) => `account:${account}`,
  email: (email: string) => `email:${email.trim().toLowerCase()}`,
  address: (ip: string) => `ip:${addressKey(ip)}`,
  addressAndAccount: (ip: string, account: string) => `ip+account:${addressKey(ip)}|${account}`,
};

/** A log-in attempt (or a password check of a signed-in user): where it came from and the email it was for. */
export interface LoginOrigin {
  ip: string;
  email: string;
}

const ofSubjects = (kind: AttemptKind, list: string[]) =>
  and(eq(authAttempts.kind, kind), inArray(authAttempts.subject, list));

/** This subject's failures inside the sliding window that ends `now`. */
const inWindow = (now: Date, kind: AttemptKind, subject: string, windowMs = WINDOW_MS) =>
  and(
    eq(authAttempts.kind, kind),
    eq(authAttempts.subject, subject),
    gte(authAttempts.createdAt, new Date(now.getTime() - windowMs)),
  );

/**
 * With `limit` failures for this subject inside the sliding window, answer 429 until the oldest of them
 * leaves the window. Works across API processes (it is a table).
 */
async function assertUnderLimit(
  db: DbOrTx,
  now: Date,
  kind: AttemptKind,
  subject: string,
  limit: number,
): Promise<void> {
  const recent = await db
    .select({ createdAt: authAttempts.createdAt })
    .from(authAttempts)
    .where(inWindow(now, kind, subject))
    .orderBy(desc(authAttempts.createdAt))
    .limit(limit);
  if (recent.length < limit) return;
  const unlocksAt = recent[limit - 1].createdAt.getTime() + WINDOW_MS;
  throw tooManyRequests(MESSAGES.auth.tooManyAttempts, Math.max(1, Math.ceil((unlocksAt - now.getTime()) / 1000)));
}

/** Records one failure under each subject and drops their failures that have left the window. */
async function recordFailure(
  db: DbOrTx,
  now: Date,
  kind: AttemptKind,
  list: string[],
  windowMs = WINDOW_MS,
): Promise<void> {
  await db.insert(authAttempts).values(list.map((subject) => ({ kind, subject, createdAt: now })));
  await db
    .delete(authAttempts)
    .where(and(ofSubjects(kind, list), lt(authAttempts.createdAt, new Date(now.getTime() - windowMs))));
}

async function countFailures(
  db: DbOrTx,
  now: Date,
  kind: AttemptKind,
  subject: string,
  windowMs = WINDOW_MS,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(authAttempts)
    .where(inWindow(now, kind, subject, windowMs));
  return Number(row?.n ?? 0);
}

// ---- The account guard (ACCOUNT_GUARD): guessing one account from many addresses ----

type GuardKind = 'login_guard' | 'code_guard';

/** The wait, in seconds, after the account's latest failure once it has `failures` of them. */
export function guardDelaySeconds(failures: number): number {
  const over = failures - ACCOUNT_GUARD.guardAfterFailures;
  if (over < 0) return 0;
  return Math.min(2 ** Math.min(over, 30), ACCOUNT_GUARD.maxDelaySeconds);
}

/**
 * Whether the account is guarded (ACCOUNT_GUARD.guardAfterFailures failures or more inside the guard
 * window, from any addresses), and 429 with the seconds left when this address has failed for the account
 * too and the account's growing delay has not passed since its latest failure. An address that has not
 * failed for the account is always let through: the owner is never locked out by others' guesses.
 */
async function assertGuardPace(
  db: DbOrTx,
  now: Date,
  kind: GuardKind,
  account: string,
  ip: string,
): Promise<{ guarded: boolean }> {
  const [state] = await db
    .select({ n: count(), latest: max(authAttempts.createdAt) })
    .from(authAttempts)
    .where(inWindow(now, kind, subjects.account(account), GUARD_WINDOW_MS));
  const failures = Number(state?.n ?? 0);
  if (failures < ACCOUNT_GUARD.guardAfterFailures) return { guarded: false };
  const latest = state?.latest ? new Date(state.latest).getTime() : 0;
  const waitMs = latest + guardDelaySeconds(failures) * 1000 - now.getTime();
  if (waitMs <= 0) return { guarded: true };
  const sourceFailures = await countFailures(db, now, kind, subjects.addressAndAccount(ip, account), GUARD_WINDOW_MS);
  if (sourceFailures === 0) return { guarded: true };
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  throw tooManyRequests(MESSAGES.auth.accountSlowedDown(seconds), seconds);
}

function recordGuardFailure(db: DbOrTx, now: Date, kind: GuardKind, account: string, ip: string): Promise<void> {
  return recordFailure(
    db,
    now,
    kind,
    [subjects.account(account), subjects.addressAndAccount(ip, account)],
    GUARD_WINDOW_MS,
  );
}

/** After a success from this address: it is a fresh address for the account again (the account's count stays). */
async function clearGuardAddress(db: DbOrTx, kind: GuardKind, account: string, ip: string): Promise<void> {
  await db.delete(authAttempts).where(ofSubjects(kind, [subjects.addressAndAccount(ip, account)]));
}

/** The account's guard count starts over (its password was reset by the owner's mailed code). */
export async function clearAccountGuard(db: DbOrTx, email: string): Promise<void> {
  const account = email.trim().toLowerCase();
  await db.delete(authAttempts).where(ofSubjects('login_guard', [subjects.account(account)]));
}

/**
 * 429 for an address that has failed AUTH_LOCKOUT.maxFailedLogins times for this email, or
 * maxFailedLoginsPerAddress times for any emails, or that has failed for a guarded account whose delay
 * runs (assertGuardPace). An address that has not been failing always gets its password checked, whatever
 * others did to the account. `guarded`: a right password alone no longer opens a session (ACCOUNT_GUARD).
 */
export async function assertLoginAllowed(db: DbOrTx, now: Date, origin: LoginOrigin): Promise<{ guarded: boolean }> {
  const { ip } = origin;
  const email = origin.email.trim().toLowerCase();
  await assertUnderLimit(db, now, 'login', subjects.addressAndAccount(ip, email), AUTH_LOCKOUT.maxFailedLogins);
  await assertUnderLimit(db, now, 'login', subjects.address(ip), AUTH_LOCKOUT.maxFailedLoginsPerAddress);
  return assertGuardPace(db, now, 'login_guard', email, ip);
}

export async function recordLoginFailure(db: DbOrTx, now: Date, origin: LoginOrigin): Promise<void> {
  const { ip } = origin;
  const email = origin.email.trim().toLowerCase();
  await recordFailure(db, now, 'login', [
    subjects.addressAndAccount(ip, email),
    subjects.address(ip),
    subjects.account(email),
  ]);
  await recordGuardFailure(db, now, 'login_guard', email, ip);
}

/**
 * After a right password: this address's count for the account and the account's alert count start over,
 * and the address is a fresh one for the account's guard (whose own count stays until it ages out).
 * The address's own count stays, or an attacker could reset it by signing in to an account of their own.
 */
export async function clearLoginFailures(db: DbOrTx, origin: LoginOrigin): Promise<void> {
  const email = origin.email.trim().toLowerCase();
  await db
    .delete(authAttempts)
    .where(ofSubjects('login', [subjects.addressAndAccount(origin.ip, email), subjects.account(email)]));
  await clearGuardAddress(db, 'login_guard', email, origin.ip);
}

/** Failed log-ins for this account from any address inside the window (for the suspicious-activity alert). */
export function countLoginFailures(db: DbOrTx, now: Date, email: string): Promise<number> {
  return countFailures(db, now, 'login', subjects.account(email));
}

// Code checks need a session of the account itself, so only the account's own sessions can fail them:
// counting them per account stops a brute force from many addresses without letting strangers lock it.

/** 429 once the account has had AUTH_LOCKOUT.maxFailedCodes wrong email codes inside the window. */
export function assertCodeChecksAllowed(db: DbOrTx, now: Date, userId: string): Promise<void> {
  return assertUnderLimit(db, now, 'verify', subjects.account(userId), AUTH_LOCKOUT.maxFailedCodes);
}

export function recordCodeFailure(db: DbOrTx, now: Date, userId: string): Promise<void> {
  return recordFailure(db, now, 'verify', [subjects.account(userId)]);
}

// Second-factor codes of a log-in (TOTP, recovery or mailed sign-in codes) come from whoever has the
// password, from any address: the account guard's rule, not a per-account cap that would lock the owner out.

/** 429 for an address that has failed this account's codes while the account's delay runs. */
export async function assertSecondFactorAllowed(db: DbOrTx, now: Date, userId: string, ip: string): Promise<void> {
  await assertUnderLimit(db, now, 'code_guard', subjects.addressAndAccount(ip, userId), AUTH_LOCKOUT.maxFailedCodes);
  await assertGuardPace(db, now, 'code_guard', userId, ip);
}

export function recordSecondFactorFailure(db: DbOrTx, now: Date, userId: string, ip: string): Promise<void> {
  return recordGuardFailure(db, now, 'code_guard', userId, ip);
}

export function clearSecondFactorFailures(db: DbOrTx, userId: string, ip: string): Promise<void> {
  return clearGuardAddress(db, 'code_guard', userId, ip);
}

// ---- Password reset ----

/**
 * Whether a reset mail may go to this address now: at most PASSWORD_RESET.maxRequestsPerEmail within
 * requestWindowMinutes, counted per email whether or not an account has it. Counts this request.
 */
export async function takeResetMailAllowance(db: DbOrTx, now: Date, email: string): Promise<boolean> {
  const subject = subjects.email(email);
  const sent = await countFailures(db, now, 'reset_request', subject, RESET_REQUEST_WINDOW_MS);
  if (sent >= PASSWORD_RESET.maxRequestsPerEmail) return false;
  await recordFailure(db, now, 'reset_request', [subject], RESET_REQUEST_WINDOW_MS);
  return true;
}

/** 429 once this email has had MAX_FAILED_RESET_CHECKS wrong reset codes inside the window (any account or none). */
export function assertResetChecksAllowed(db: DbOrTx, now: Date, email: string): Promise<void> {
  return assertUnderLimit(db, now, 'reset_check', subjects.email(email), MAX_FAILED_RESET_CHECKS);
}

export function recordResetCheckFailure(db: DbOrTx, now: Date, email: string): Promise<void> {
  return recordFailure(db, now, 'reset_check', [subjects.email(email)]);
}

/**
 * The resend cooldown counts requests per email address, whether or not an account has it, so the answer
 * (200, or 429 with the seconds left) never tells who has an account. Seconds to wait, 0 when allowed.
 */
export async function resendWaitSeconds(db: DbOrTx, now: Date, email: string, cooldownSeconds: number) {
  const [latest] = await db
    .select({ createdAt: authAttempts.createdAt })
    .from(authAttempts)
    .where(and(eq(authAttempts.kind, 'resend'), eq(authAttempts.subject, subjects.email(email))))
    .orderBy(desc(authAttempts.createdAt))
    .limit(1);
  const waitMs = latest ? latest.createdAt.getTime() + cooldownSeconds * 1000 - now.getTime() : 0;
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
}

export function recordResend(db: DbOrTx, now: Date, email: string): Promise<void> {
  return recordFailure(db, now, 'resend', [subjects.email(email)]);
}
