import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, it } from 'vitest';
import type { StorageUsage } from '../common/api/uploads.ts';
import { storageSize } from '../common/rules/storage.ts';
import { baseUrl, expect, logIn, openBrowser, signUpByApi, uniqueEmail } from './browser.ts';

const PASSWORD = 'silver-orchard-kite-5';
const JSON_HEADERS = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };

/** A verified creator (welcome credits, trial) with a known email and password, signed in through the form. */
async function registerAndLogIn(page: Page, prefix: string): Promise<string> {
  const email = uniqueEmail(prefix);
  await signUpByApi({ first_name: 'Ada', last_name: 'Account', email, password: PASSWORD, role: 'creator' });
  await logIn(page, email, PASSWORD);
  return email;
}

/**
 * Uploads a noisy PNG as the signed-in user and waits for its thumbnail, so that the storage figure
 * is settled; answers the server's figure as the Billing tab should show it ("24.1 kB of 5 GB used").
 */
async function uploadAndStorageText(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  const auth = { authorization: `Bearer ${token}` };
  const side = 96;
  const noise = Buffer.from(Array.from({ length: side * side * 3 }, (_, i) => (i * 7919) % 251));
  const png = await sharp(noise, { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([png], { type: 'image/png' }), 'noise.png');
  const uploaded = await fetch(`${baseUrl()}/api/upload`, { method: 'POST', headers: auth, body: form });
  expect(uploaded.status).toBe(200);
  const { data } = (await uploaded.json()) as { data: { id: string } };
  await expect
    .poll(async () => {
      const res = await fetch(`${baseUrl()}/api/upload/${data.id}`, { headers: auth });
      return ((await res.json()) as { data: { status: string } }).data.status;
    })
    .toBe('ready');
  const res = await fetch(`${baseUrl()}/api/account/storage`, { headers: auth });
  const usage = ((await res.json()) as { data: StorageUsage }).data;
  expect(usage.usedBytes).toBeGreaterThan(png.length);
  const format = (bytes: number) => {
    const { value, unit } = storageSize(bytes);
    return new Intl.NumberFormat('en', { style: 'unit', unit, maximumFractionDigits: 1 }).format(value);
  };
  return `${format(usage.usedBytes)} of ${format(usage.limitBytes)} used`;
}

async function openAccount(page: Page, tab: string): Promise<void> {
  await page.goto(`${baseUrl()}/dashboard?account=${tab}`);
  await page.getByTestId('account-dialog').waitFor();
  await page.getByTestId(`account-${tab}`).waitFor();
}

async function typeCode(page: Page, code: string, firstBox = page.getByTestId('code-input-0')): Promise<void> {
  await firstBox.click();
  await page.keyboard.type(code);
}

describe('account and billing', () => {
  it('buys a package through the local checkout: the balance grows and Transactions shows it', {
    timeout: 120_000,
  }, async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await registerAndLogIn(page, 'topup');
      const balance = page.getByTestId('credit-balance');
      await expect.poll(() => balance.textContent()).toBe('200');
      const storageText = await uploadAndStorageText(page);

      // The sidebar balance opens Billing; the URL keeps the tab.
      await page.getByTestId('credit-balance-button').click();
      await page.getByTestId('account-billing').waitFor();
      expect(new URL(page.url()).searchParams.get('account')).toBe('billing');
      expect(await page.getByTestId('billing-balance').textContent()).toBe('200');
      expect(await page.getByTestId('billing-credits').getByTestId('credit-badge').getAttribute('data-badge')).toBe(
        'good',
      );
      // Storage used against the quota (issue 17): the upload and its thumbnail, of the 5 GB default.
      await expect.poll(() => page.getByTestId('billing-storage-used').textContent()).toBe(storageText);
      expect(storageText).toMatch(/ of 5 GB used$/);
      expect(
        Number(await page.getByTestId('billing-storage').getByRole('progressbar').getAttribute('aria-valuenow')),
      ).toBe(0);

      await page.getByTestId('billing-topup').click();
      const dialog = page.getByTestId('topup-dialog');
      await dialog.waitFor();
      await expect.poll(() => dialog.locator('[data-popular]').count()).toBe(1);
      expect(await dialog.locator('[data-popular]').textContent()).toContain('Most Popular');
      await page.getByTestId('topup-package-starter').click();
      await expect.poll(() => page.getByTestId('topup-purchase').textContent()).toContain('€10.00');
      await page.getByTestId('topup-purchase').click();

      await page.waitForURL('**/checkout/local/**');
      expect(await page.getByTestId('checkout-amount').textContent()).toContain('10.00');
      await page.getByTestId('checkout-pay').click();

      // Back on /dashboard?topup=success: the flag is handled and dropped, the balance refreshed.
      await page.waitForURL((url) => url.pathname === '/dashboard');
      await page.getByTestId('dashboard-shell').waitFor();
      await expect.poll(() => balance.textContent(), { timeout: 15_000 }).toBe('300');
      await expect.poll(() => new URL(page.url()).searchParams.get('topup')).toBeNull();
      // Issue 18: the return lands on Billing, where the new balance shows.
      await page.getByTestId('account-billing').waitFor();
      await expect.poll(() => page.getByTestId('billing-balance').textContent()).toBe('300');

      await openAccount(page, 'transactions');
      const rows = page.getByTestId('transaction-row');
      await expect.poll(() => rows.count()).toBe(2);
      const newest = rows.first();
      expect(await newest.getAttribute('data-type')).toBe('addition');
      expect(await newest.textContent()).toContain('+100');
      expect(await newest.textContent()).toContain('300');

      // A reload keeps the open tab.
      await page.reload();
      await page.getByTestId('account-transactions').waitFor();

      // A generation adds a row with a long description; every date stays whole in the table at 1440 px and in
      // the stacked cards at 375 px, in both reading directions (issue 18).
      const token = await page.evaluate(() => localStorage.getItem('auth_token'));
      const generated = await fetch(`${baseUrl()}/api/ai/generate/image`, {
        method: 'POST',
        headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` },
        body: JSON.stringify({ prompt: 'A lighthouse on a cliff at dusk', model: 'nanobana', numberOfImages: 1 }),
      });
      expect(generated.status).toBe(200);
      for (const [width, language] of [
        [1440, 'en'],
        [1440, 'ar'],
        [375, 'en'],
        [375, 'ar'],
      ] as const) {
        await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
        await page.evaluate((lang) => localStorage.setItem('language', lang), language);
        await page.reload();
        await page.getByTestId('account-transactions').waitFor();
        const rowTestId = width === 375 ? 'transaction-card' : 'transaction-row';
        await expect.poll(() => page.getByTestId(rowTestId).count(), { timeout: 15_000 }).toBe(3);
        // The table's last column, or the date line of each card.
        const dates =
          width === 375
            ? page.getByTestId(rowTestId).getByTestId('transaction-date')
            : page.getByTestId(rowTestId).locator('td:last-child');
        expect(await dates.count()).toBe(3);
        for (const visible of await dates.evaluateAll((cells) =>
          cells.map((cell) => {
            const box = cell.getBoundingClientRect();
            // The table's frame (which clips what overflows it) or the card.
            const frame = (cell.closest('table')?.parentElement ?? cell.closest('li')) as HTMLElement;
            const outer = frame.getBoundingClientRect();
            return (
              cell.scrollWidth <= cell.clientWidth + 1 &&
              box.width > 0 &&
              box.left >= outer.left - 1 &&
              box.right <= outer.right + 1 &&
              box.right <= window.innerWidth
            );
          }),
        )) {
          expect(visible, `date cell at ${width} px (${language})`).toBe(true);
        }
        await page.screenshot({ path: `test-results/screenshots/account-transactions-${width}-${language}.png` });
      }
      await page.evaluate(() => localStorage.setItem('language', 'en'));
    } finally {
      await browser.close();
    }
  });

  it('enables two-factor and then logs in with a code from the same secret', { timeout: 150_000 }, async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      const email = await registerAndLogIn(page, 'totp');
      await openAccount(page, 'security');
      await page.getByTestId('two-factor-enable').click();
      await page.getByTestId('two-factor-setup').waitFor();
      expect(await page.getByTestId('two-factor-qr').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
      const secret = (await page.getByTestId('two-factor-secret').textContent())?.trim() ?? '';
      expect(secret).toMatch(/^[A-Z2-7]+=*$/);
      const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });

      const enableCode = totp.generate();
      await typeCode(page, enableCode, page.getByTestId('two-factor-setup').getByTestId('code-input-0'));
      await page.getByTestId('recovery-codes').waitFor();
      expect(await page.getByTestId('recovery-code').count()).toBe(10);
      await page.getByTestId('recovery-done').click();
      await expect.poll(() => page.getByTestId('two-factor-status').getAttribute('data-enabled')).toBe('true');

      await page.getByTestId('account-close').click();
      await page.getByTestId('logout-button').click();
      await page.waitForURL('**/auth/login');

      await page.locator('#login-email').fill(email);
      await page.locator('#login-password').fill(PASSWORD);
      await page.getByTestId('login-submit').click();
      await page.getByTestId('login-two-factor').waitFor();

      // A code is accepted once: wait for the next 30 s step if the enabling code is still current.
      let code = totp.generate();
      while (code === enableCode) {
        await new Promise((r) => setTimeout(r, 1000));
        code = totp.generate();
      }

      // A wrong code first (valid in no nearby 30 s step): refused, the boxes emptied, the first one focused.
      const step = page.getByTestId('login-two-factor');
      let wrong = String((Number(code) + 500_000) % 1_000_000).padStart(6, '0');
      while (totp.validate({ token: wrong, window: 2 }) !== null)
        wrong = String((Number(wrong) + 1) % 1_000_000).padStart(6, '0');
      await typeCode(page, wrong);
      await expect.poll(() => step.getByTestId('form-error').isVisible()).toBe(true);
      const boxValues = () =>
        page.evaluate(() =>
          [...document.querySelectorAll<HTMLInputElement>('[data-testid^="code-input-"]')].map((box) => box.value),
        );
      await expect.poll(boxValues).toEqual(['', '', '', '', '', '']);
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
        .toBe('code-input-0');

      // Then the right one, typed key by key where the focus is: every digit lands in its box (none is lost to a
      // focus jump back to the first box) and the full code signs in.
      code = totp.generate();
      while (code === enableCode) {
        await new Promise((r) => setTimeout(r, 1000));
        code = totp.generate();
      }
      await page.keyboard.type(code.slice(0, 5), { delay: 40 });
      expect(await boxValues()).toEqual([...code.slice(0, 5).split(''), '']);
      expect(await step.getByTestId('form-error').count()).toBe(0);
      await page.keyboard.type(code.slice(5));
      await page.waitForURL('**/dashboard**');
      await page.getByTestId('dashboard-shell').waitFor();
    } finally {
      await browser.close();
    }
  });

  it('deletes the account, lands on the home page, and the old credentials no longer log in', {
    timeout: 120_000,
  }, async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      const email = await registerAndLogIn(page, 'delete');
      await openAccount(page, 'security');
      await page.locator('#delete-password').fill(PASSWORD);
      await page.locator('#delete-phrase').fill('delete my account');
      await page.getByTestId('delete-account-submit').click();
      await expect
        .poll(() => page.getByTestId('delete-account').getByTestId('form-error').textContent())
        .toContain('DELETE MY ACCOUNT');

      await page.locator('#delete-phrase').fill('DELETE MY ACCOUNT');
      await page.getByTestId('delete-account-submit').click();
      await page.getByTestId('delete-account-dialog').waitFor();
      await page.getByTestId('delete-account-dialog-confirm').click();
      await page.waitForURL((url) => url.pathname === '/');

      const login = await fetch(`${baseUrl()}/api/auth/login`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      expect(login.status).toBe(401);
    } finally {
      await browser.close();
    }
  });
});
