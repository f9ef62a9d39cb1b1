import sharp from 'sharp';
import { describe, it } from 'vitest';
import { baseUrl, expect, freshCreator, openBrowser } from './browser.ts';

const solidJpeg = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .toBuffer();

// Issue 21: a published post's image loads on its share page for a viewer who is not signed in.
describe('share page media', () => {
  it("a post's image shows on its share page in a fresh browser that never signed in", {
    timeout: 120_000,
  }, async () => {
    const author = await openBrowser();
    let shareUrl = '';
    try {
      const token = await freshCreator(author.page);
      const auth = { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' };

      // Connect the sandbox Instagram in the author's browser: consent page, Approve, callback.
      const started = await author.page.request.post(`${baseUrl()}/api/social/connect/instagram`, { headers: auth });
      expect(started.status()).toBe(200);
      await author.page.goto(((await started.json()) as { authUrl: string }).authUrl);
      await author.page.getByTestId('sandbox-approve').click();
      await author.page.getByTestId('oauth-result').waitFor();
      expect(await author.page.getByTestId('oauth-result').getAttribute('data-ok')).toBe('true');

      // Upload an image (private to the author) and publish it now.
      const form = new FormData();
      form.append(
        'file',
        // A JPEG: Instagram takes no other image format (common/rules/social-media.ts).
        new Blob([new Uint8Array(await solidJpeg(40, 30, '#ff6633'))], { type: 'image/jpeg' }),
        'a.jpg',
      );
      const uploaded = await fetch(`${baseUrl()}/api/upload`, { method: 'POST', headers: auth, body: form });
      expect(uploaded.status).toBe(200);
      const { url } = ((await uploaded.json()) as { data: { url: string } }).data;
      const published = await fetch(`${baseUrl()}/api/social/publish`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          message: 'Open to all',
          platforms: ['instagram'],
          media_urls: [url],
          mode: 'materials',
        }),
      });
      expect(published.status).toBe(200);
      const [result] = ((await published.json()) as { data: { results: { status: string; share_url: string }[] } }).data
        .results;
      expect(result?.status).toBe('published');
      shareUrl = result?.share_url as string;
    } finally {
      await author.close();
    }

    const viewer = await openBrowser();
    try {
      expect(await viewer.context.cookies()).toEqual([]);
      await viewer.page.goto(shareUrl);
      await viewer.page.getByTestId('post-message').waitFor();
      const img = viewer.page.locator('main img');
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(40);
      expect(await img.evaluate((el: HTMLImageElement) => el.naturalHeight)).toBe(30);
    } finally {
      await viewer.close();
    }
  });
});
