import { describe, it } from 'vitest';
import { baseUrl, expect, latestCode, logIn, openBrowser, uniqueEmail } from './browser.ts';

describe('account journey', () => {
  it('registers, verifies with the mailed code, uses the dashboard, logs out and in again', async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      const email = uniqueEmail('journey');
      const password = 'correct-horse-9';
      await page.goto(`${baseUrl()}/`);
      await page.getByTestId('home-cta-register').first().click();
      await page.waitForURL('**/auth/register');

      await page.getByTestId('role-brand').click();
      await page.locator('#register-first-name').fill('Maya');
      await page.locator('#register-last-name').fill('Haddad');
      await page.locator('#register-email').fill(email);
      await page.locator('#register-password').fill(password);
      await page.getByTestId('register-submit').click();
      await page.waitForURL('**/auth/verify?email=*');
      // The page says a code was mailed (the same for a taken email: see the next test); no account exists yet.
      await expect
        .poll(() => page.getByTestId('register-sent').textContent())
        .toContain('We sent a 6-digit code to your email. Enter it to finish creating your account.');
      expect(await page.getByTestId('verify-email').textContent()).toBe(email);

      // A wrong code clears the boxes and returns focus to the first one.
      const code = await latestCode(email);
      const wrong = code === '000000' ? '111111' : '000000';
      await page.getByTestId('code-input-0').click();
      await page.keyboard.type(wrong);
      await expect
        .poll(() => page.getByTestId('form-error').textContent())
        .toContain('Invalid verification code. Please try again.');
      expect(await page.getByTestId('code-input-0').inputValue()).toBe('');
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
        .toBe('code-input-0');

      // Pasting more than six characters takes the first six, and the full code submits by itself.
      await page.evaluate((text) => {
        const input = document.querySelector('[data-testid="code-input-0"]') as HTMLInputElement;
        const data = new DataTransfer();
        data.setData('text/plain', text);
        input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      }, `${code}99`);
      await page.waitForURL('**/dashboard**');
      await page.getByTestId('dashboard-shell').waitFor();
      expect(await page.getByTestId('credit-balance').first().textContent()).toContain('200');

      // Views are kept in the URL.
      await page.getByTestId('nav-aiPersonas').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('view')).toBe('aiPersonas');
      expect(await page.getByTestId('view-title').textContent()).toBeTruthy();
      await page.getByTestId('nav-genproStudio').click();
      await expect.poll(() => new URL(page.url()).searchParams.get('view')).toBe('genproStudio');
      await page.reload();
      await page.getByTestId('dashboard-shell').waitFor();
      expect(await page.getByTestId('dashboard-shell').getAttribute('data-view')).toBe('genproStudio');

      await page.getByTestId('logout-button').click();
      await page.waitForURL('**/auth/login');
      await page.goto(`${baseUrl()}/dashboard`);
      await expect
        .poll(() => page.getByTestId('login-required').textContent())
        .toContain('Please log in to access the dashboard');

      await logIn(page, email, password);
    } finally {
      await browser.close();
    }
  });

  it('registering a taken email shows the same code-mailed page; its owner is mailed instead (issue 27)', async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      // A demo account: nothing has mailed it within the resend cooldown, so its owner gets the notice.
      const owner = 'brand@genpro.local';
      const pages: string[] = [];
      for (const email of [owner, uniqueEmail('newcomer')]) {
        await page.goto(`${baseUrl()}/auth/register`);
        await page.locator('#register-first-name').fill('Eve');
        await page.locator('#register-last-name').fill('Probe');
        await page.locator('#register-email').fill(email);
        await page.locator('#register-password').fill('quiet-lantern-ferry-42');
        await page.getByTestId('register-submit').click();
        await page.waitForURL('**/auth/verify?email=*');
        await page.getByTestId('register-sent').waitFor();
        const text = await page.getByTestId('verify-panel').evaluate((el) => el.closest('main')?.innerText ?? '');
        pages.push(text.replace(email, '<email>'));
      }
      expect(pages[0]).toBe(pages[1]);
      const mails = (await (await fetch(`${baseUrl()}/dev/mail.json?to=${encodeURIComponent(owner)}`)).json()) as {
        data: { subject: string; text: string }[];
      };
      const notice = mails.data.find((m) => m.subject === 'Someone tried to register with your GenPro Studio email');
      expect(notice?.text).toContain('/auth/forgot-password');
    } finally {
      await browser.close();
    }
  });

  it('shows the wrong-password message and stays on the log-in page', async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await page.goto(`${baseUrl()}/auth/login`);
      await page.locator('#login-email').fill('brand@genpro.local');
      await page.locator('#login-password').fill('not-the-password');
      await page.getByTestId('login-submit').click();
      await expect.poll(() => page.getByTestId('form-error').textContent()).toContain('Invalid email or password');
      expect(new URL(page.url()).pathname).toBe('/auth/login');
    } finally {
      await browser.close();
    }
  });
});
