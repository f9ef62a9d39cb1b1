// Helpers shared by the auth integration tests (and usable by other features' tests).
import type { App } from '../../app.ts';
import { hashPassword } from '../../platform/auth/crypto.ts';
import { createSession } from '../../platform/auth/sessions.ts';
import type { TestApp } from '../../test/harness.ts';
import { insertAccount } from './service.ts';

export interface Registered {
  token: string;
  userId: string;
  email: string;
  password: string;
}

let counter = 0;

function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.com`;
}

export function registrationBody(overrides: Record<string, unknown> = {}) {
  return {
    first_name: 'Rita',
    last_name: 'Tester',
    email: uniqueEmail(),
    password: 'correct horse battery',
    role: 'creator',
    ...overrides,
  };
}

/**
 * POST /api/auth/register, expecting the 202 every email gets (issue 27: the account is created only by
 * verify-code). Returns the registration body's email and password.
 */
export async function startRegistration(
  app: App,
  overrides: Record<string, unknown> = {},
): Promise<{ email: string; password: string; body: ReturnType<typeof registrationBody> }> {
  const body = registrationBody(overrides);
  const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
  if (res.statusCode !== 202) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  return { email: String(body.email).trim().toLowerCase(), password: String(body.password), body };
}

/** POST /api/auth/verify-code with the email and the code mailed at registration: the new account's session. */
export async function finishRegistration(app: App, email: string, code?: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/verify-code',
    payload: { email, code: code ?? (await latestCode(app, email)) },
  });
  if (res.statusCode !== 200) throw new Error(`verify-code failed: ${res.statusCode} ${res.body}`);
  return res.json() as { token: string; user: { id: string; is_verified: boolean; credits: number } };
}

/**
 * A signed-up account as a person makes it: register, read the mailed code from /dev/mail.json, verify it (the
 * account is created verified, signed in, with its welcome credits).
 */
export async function register(app: App, overrides: Record<string, unknown> = {}): Promise<Registered> {
  const { email, password } = await startRegistration(app, overrides);
  const { token, user } = await finishRegistration(app, email);
  return { token, userId: user.id, email, password };
}

/**
 * An unverified account with a session, as sign-up made them before issue 27 (they can still exist, and an
 * email can go back to unverified): no code is mailed until resend-verification is asked.
 */
export async function registerUnverified(
  t: Pick<TestApp, 'ctx'>,
  overrides: Record<string, unknown> = {},
): Promise<Registered> {
  const body = registrationBody(overrides);
  const now = t.ctx.clock.now();
  const passwordHash = await hashPassword(String(body.password));
  return t.ctx.db.transaction(async (tx) => {
    const user = await insertAccount(tx, now, {
      firstName: String(body.first_name),
      lastName: String(body.last_name),
      email: String(body.email),
      passwordHash,
      role: body.role === 'brand' ? 'brand' : 'creator',
      userStatus: body.role === 'brand' ? null : 'pending',
      isVerified: false,
    });
    const { token } = await createSession(tx, now, user.id, { ip: '127.0.0.1', userAgent: 'lightMyRequest' });
    return { token, userId: user.id, email: user.email, password: String(body.password) };
  });
}

/** The newest six-digit code mailed to this address, read from /dev/mail.json as the browser tests do. */
export async function latestCode(app: App, email: string): Promise<string> {
  const res = await app.inject({ method: 'GET', url: `/dev/mail.json?to=${encodeURIComponent(email)}` });
  const json = res.json() as { data: { text: string }[] };
  const code = json.data[0]?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

/** A six-digit code that differs from the given one. */
export function wrongCode(code: string): string {
  return code === '000000' ? '111111' : '000000';
}
