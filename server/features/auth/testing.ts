// Helpers shared by the auth integration tests (and usable by other features' tests).
import type { App } from '../../app.ts';

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

export async function register(app: App, overrides: Record<string, unknown> = {}): Promise<Registered> {
  const body = registrationBody(overrides);
  const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: body });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const json = res.json() as { data: { token: string; user: { id: string } } };
  return {
    token: json.data.token,
    userId: json.data.user.id,
    email: String(body.email),
    password: String(body.password),
  };
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
