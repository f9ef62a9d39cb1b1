// The brand logo is one of the brand's own images (issue 27 finding 7): the profile has no URL field for it, only
// an upload and a pick from the brand's media library. The brand sees the logo it chose, loaded under the page's
// Content-Security-Policy (img-src: the studio's own origin, its media origin, data: and blob:).
import sharp from 'sharp';
import { describe, it } from 'vitest';
import { baseUrl, expect, logIn, openBrowser, signUpByApi, uniqueEmail } from './browser.ts';

const PASSWORD = 'cobalt-willow-signal-4';
const JSON_HEADERS = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };

async function registerBrand(): Promise<string> {
  const email = uniqueEmail('logo-brand');
  await signUpByApi({ first_name: 'Lena', last_name: 'Logo', email, password: PASSWORD, role: 'brand' });
  return email;
}

/** A PNG of one colour, as a file the brand keeps on its computer. */
const png = (width: number, height: number, colour: string) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

describe('brand logo', () => {
  it('the brand uploads its logo, then picks another from its own media, and sees each; no URL can be typed', {
    timeout: 180_000,
  }, async () => {
    const browser = await openBrowser();
    const { page } = browser;
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    try {
      const email = await registerBrand();
      await logIn(page, email, PASSWORD);
      const token = await page.evaluate(() => localStorage.getItem('auth_token'));
      // One image in the brand's media library (uploaded, then kept as an asset), for the pick.
      const form = new FormData();
      form.append('file', new Blob([await png(64, 64, '#2255dd')], { type: 'image/png' }), 'blue.png');
      const auth = { authorization: `Bearer ${token}` };
      const uploaded = await fetch(`${baseUrl()}/api/upload`, { method: 'POST', headers: auth, body: form });
      expect(uploaded.status).toBe(200);
      const { data: upload } = (await uploaded.json()) as { data: { url: string } };
      const asset = await fetch(`${baseUrl()}/api/ai/assets`, {
        method: 'POST',
        headers: { ...JSON_HEADERS, ...auth },
        body: JSON.stringify({ type: 'image', url: upload.url, prompt: 'Blue logo' }),
      });
      expect(asset.status).toBe(200);

      await page.goto(`${baseUrl()}/dashboard?account=profile`);
      const card = page.getByTestId('brand-logo-card');
      await card.waitFor();
      // No text field takes a logo URL.
      expect(await page.locator('input[id*="logo" i]:not([type="file"])').count()).toBe(0);
      expect(await card.getByTestId('brand-logo-image').count()).toBe(0);

      // ---- Upload from the computer. ----
      await card.getByTestId('brand-logo-input').setInputFiles({
        name: 'orange.png',
        mimeType: 'image/png',
        buffer: await png(600, 300, '#ff8800'),
      });
      const image = card.getByTestId('brand-logo-image');
      await image.waitFor();
      const uploadedSrc = await image.getAttribute('src');
      expect(uploadedSrc).toMatch(/^\/api\/images\/.+\.webp$/);
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 15_000 })
        .toBe(512);

      // ---- Pick from the media library. ----
      await card.getByTestId('brand-logo-pick').click();
      const picker = page.getByTestId('asset-picker');
      await picker.waitFor();
      await picker.getByTestId('picker-item').first().click();
      await picker.getByTestId('picker-confirm').click();
      await expect.poll(() => image.getAttribute('src'), { timeout: 15_000 }).not.toBe(uploadedSrc);
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 15_000 })
        .toBe(64);
      // It stays after a reload (stored on the profile), and the page's policy blocked nothing.
      const picked = await image.getAttribute('src');
      await page.reload();
      await page.getByTestId('brand-logo-image').waitFor();
      expect(await page.getByTestId('brand-logo-image').getAttribute('src')).toBe(picked);
      expect(blocked).toEqual([]);

      // The server refuses a typed tracking pixel, whatever a client sends.
      const typed = await fetch(`${baseUrl()}/api/brands/profile`, {
        method: 'PATCH',
        headers: { ...JSON_HEADERS, ...auth },
        body: JSON.stringify({ logoUrl: 'https://tracker.example/pixel.gif' }),
      });
      expect(typed.status).toBe(400);
    } finally {
      await browser.close();
    }
  });
});
