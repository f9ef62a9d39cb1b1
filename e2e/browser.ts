import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject, onTestFailed } from 'vitest';
import { CREATOR_TYPES } from '../common/rules/directory.ts';
import { CHROMIUM_ARGS } from '../scripts/chromium.ts';

export const baseUrl = () => inject('baseUrl');
const SCREENSHOT_DIR = path.resolve('test-results', 'screenshots');

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
}

/** A fresh Chromium profile (Debian's chromium, headless) for one test; screenshots saved on failure. */
export async function openBrowser(
  options: { width?: number; height?: number; locale?: string; userAgent?: string } = {},
) {
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    locale: options.locale ?? 'en-US',
    // Headless Chromium names itself HeadlessChrome, which the share pages treat as a bot (not counted).
    userAgent: options.userAgent,
    args: CHROMIUM_ARGS,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  onTestFailed(async ({ task }) => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, `${task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
  });
  return {
    context,
    page,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Logs in through the form (of the journeys' studio, or the one at `base`) and waits for the dashboard shell. */
export async function logIn(page: Page, email: string, password: string, base = baseUrl()): Promise<void> {
  await page.goto(`${base}/auth/login`);
  await page.locator('#login-email').fill(email);
  await page.locator('#login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL('**/dashboard**');
  await page.getByTestId('dashboard-shell').waitFor();
}

/** An address no other test uses. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** The newest six-digit code mailed to an address, read from the embedded outbox. */
export async function latestCode(email: string): Promise<string> {
  for (let i = 0; i < 40; i++) {
    const res = await fetch(`${baseUrl()}/dev/mail.json?to=${encodeURIComponent(email)}`);
    if (res.ok) {
      const body = (await res.json()) as { data: Array<{ text: string }> };
      const match = body.data[0]?.text.match(/\b(\d{6})\b/);
      if (match) return match[1];
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`No verification code mailed to ${email}`);
}

/** A fresh verified creator with the welcome credits, signed in on the page. */
export async function freshCreator(page: Page): Promise<string> {
  const email = uniqueEmail('studio');
  const api = `${baseUrl()}/api/auth`;
  const headers = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  const reg = await fetch(`${api}/register`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ first_name: 'Sam', last_name: 'Studio', email, password: 'studio-pass-1', role: 'creator' }),
  });
  const { data } = (await reg.json()) as { data: { token: string } };
  const code = await latestCode(email);
  const verified = await fetch(`${api}/verify-code`, {
    method: 'POST',
    headers: { ...headers, authorization: `Bearer ${data.token}` },
    body: JSON.stringify({ code }),
  });
  const { token } = (await verified.json()) as { token: string };
  // Signed in as the web does it: the token in localStorage and the httpOnly session cookie media URLs use.
  await page.context().addCookies([{ name: 'genpro_session', value: token, url: baseUrl() }]);
  await page.goto(`${baseUrl()}/auth/login`);
  await page.evaluate((t) => localStorage.setItem('auth_token', t), token);
  return token;
}

/** A fresh creator, approved by the demo admin (so every creator view is open), signed in on the page. */
export async function approvedCreator(page: Page): Promise<string> {
  const token = await freshCreator(page);
  const headers = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  const me = (await (
    await fetch(`${baseUrl()}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { data: { user: { id: string } } };
  const admin = (await (
    await fetch(`${baseUrl()}/api/auth/login`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: 'admin@genpro.local', password: 'genpro-admin' }),
    })
  ).json()) as { data: { token: string } };
  const approved = await fetch(`${baseUrl()}/api/admin/users/approve`, {
    method: 'POST',
    headers: { ...headers, authorization: `Bearer ${admin.data.token}` },
    body: JSON.stringify({ userId: me.data.user.id, action: 'approve', creatorType: CREATOR_TYPES[0] }),
  });
  if (!approved.ok) throw new Error(`approving the creator: ${approved.status} ${await approved.text()}`);
  return token;
}

export { afterAll, afterEach, beforeAll, expect };
