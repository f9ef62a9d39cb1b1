import { and, count, desc, eq, gte, inArray, lt } from 'drizzle-orm';
import ipaddr from 'ipaddr.js';
import { AUTH_LOCKOUT } from '../../../common/api/auth.constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { DbOrTx } from '../../db/client.ts';
import { authAttempts } from '../../db/schema/index.ts';
import { tooManyRequests } from '../../platform/errors.ts';

type AttemptKind = (typeof authAttempts.$inferInsert)['kind'];

const WINDOW_MS = AUTH_LOCKOUT.windowMinutes * 60_000;

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
const inWindow = (now: Date, kind: AttemptKind, subject: string) =>
  and(
    eq(authAttempts.kind, kind),
    eq(authAttempts.subject, subject),
    gte(authAttempts.createdAt, new Date(now.getTime() - WINDOW_MS)),
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
async function recordFailure(db: DbOrTx, now: Date, kind: AttemptKind, list: string[]): Promise<void> {
  await db.insert(authAttempts).values(list.map((subject) => ({ kind, subject, createdAt: now })));
  await db
    .delete(authAttempts)
    .where(and(ofSubjects(kind, list), lt(authAttempts.createdAt, new Date(now.getTime() - WINDOW_MS))));
}

async function countFailures(db: DbOrTx, now: Date, kind: AttemptKind, subject: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(authAttempts)
    .where(inWindow(now, kind, subject));
  return Number(row?.n ?? 0);
}

/**
 * 429 for an address that has failed AUTH_LOCKOUT.maxFailedLogins times for this email, or
 * maxFailedLoginsPerAddress times for any emails. An address that has not been failing always gets its
 * password checked, whatever others did to the account.
 */
export async function assertLoginAllowed(db: DbOrTx, now: Date, origin: LoginOrigin): Promise<void> {
  const { ip, email } = origin;
  await assertUnderLimit(db, now, 'login', subjects.addressAndAccount(ip, email), AUTH_LOCKOUT.maxFailedLogins);
  await assertUnderLimit(db, now, 'login', subjects.address(ip), AUTH_LOCKOUT.maxFailedLoginsPerAddress);
}

export async function recordLoginFailure(db: DbOrTx, now: Date, origin: LoginOrigin): Promise<void> {
  const { ip, email } = origin;
  await recordFailure(db, now, 'login', [
    subjects.addressAndAccount(ip, email),
    subjects.address(ip),
    subjects.account(email),
  ]);
}

/**
 * After a right password: this address's count for the account and the account's alert count start over.
 * The address's own count stays, or an attacker could reset it by signing in to an account of their own.
 */
export async function clearLoginFailures(db: DbOrTx, origin: LoginOrigin): Promise<void> {
  await db
    .delete(authAttempts)
    .where(ofSubjects('login', [subjects.addressAndAccount(origin.ip, origin.email), subjects.account(origin.email)]));
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
