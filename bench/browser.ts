/**
 * The browser the bench drives: a fresh Chromium profile (nothing cached from an earlier run) and the demo account
 * signed in through the login page, as a user would.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../scripts/chromium.ts';

/** Where the studio under measurement runs and who signs in. */
export interface Credentials {
  baseUrl: string;
  email: string;
  password: string;
}

export interface BenchBrowser {
  context: BrowserContext;
  /** The profile's first tab. */
  page: Page;
  /** Closes Chromium and deletes the profile. */
  close: () => Promise<void>;
}

export async function openBenchBrowser(viewport = { width: 1600, height: 1000 }): Promise<BenchBrowser> {
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-bench-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    viewport,
    args: CHROMIUM_ARGS,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in through the login page and waits for the dashboard. */
export async function signIn(page: Page, { baseUrl, email, password }: Credentials): Promise<void> {
  await page.goto(`${baseUrl}/auth/login`);
  await page.locator('#login-email').fill(email);
  await page.locator('#login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL('**/dashboard**');
}
