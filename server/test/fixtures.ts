// Test fixtures shared by features' integration tests. Add helpers; do not change existing ones.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { sessions, users } from '../db/schema/index.ts';
import { DUMMY_PASSWORD_HASH, generateToken, sha256 } from '../platform/auth/crypto.ts';

export interface TestUser {
  id: string;
  email: string;
  /** A session token for `authorization: Bearer` or the session cookie. */
  token: string;
}

/** Inserts a verified user (with `credits` on the balance, no ledger row) and a session for it. */
export async function createTestUser(
  db: Db,
  options: { credits?: number; role?: 'creator' | 'brand' | 'admin' } = {},
): Promise<TestUser> {
  const id = randomUUID();
  const email = `test-${id}@example.com`;
  const role = options.role ?? 'creator';
  await db.insert(users).values({
    id,
    firstName: 'Test',
    lastName: 'User',
    email,
    passwordHash: DUMMY_PASSWORD_HASH,
    role,
    userStatus: role === 'creator' ? 'approved_creator' : null,
    isVerified: true,
    credits: options.credits ?? 0,
  });
  const token = generateToken();
  await db.insert(sessions).values({
    userId: id,
    tokenHash: sha256(token),
    deviceType: 'desktop',
    userAgent: 'vitest',
    location: 'Test',
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  return { id, email, token };
}

/** The balance stored on the user. */
export async function creditsOf(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
  if (!row) throw new Error(`no user ${userId}`);
  return row.credits;
}

export function authHeader(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/** Polls `probe` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false>,
  {
    timeoutMs = 15_000,
    intervalMs = 50,
    what = 'condition',
  }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
