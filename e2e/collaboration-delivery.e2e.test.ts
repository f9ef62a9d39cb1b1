import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { baseUrl, expect, logIn, openBrowser } from './browser.ts';
import { activeCollaboration, api, connectSandboxByApi, MARKET_PASSWORD, uploadFile } from './marketplace.ts';

const SHOTS = path.resolve('test-results', 'screenshots');

// Issue 29, point 6: the brand sees each delivered post against the deliverables, and is warned before paying for
// a collaboration with deliverables missing.
describe('collaboration delivery', () => {
  it('shows the published post with its preview, network, link and figures, and warns before paying with deliverables missing', {
    timeout: 300_000,
  }, async () => {
    const { brand, creator, campaignId, collaborationId } = await activeCollaboration({
      title: 'Spring shoe launch',
      platforms: ['instagram', 'tiktok'],
      contentTypes: ['image', 'video'],
      deliverables: [
        { type: 'Instagram posts', quantity: 1, platform: 'instagram', contentType: 'image' },
        { type: 'TikTok videos', quantity: 2, platform: 'tiktok', contentType: 'video' },
      ],
      rate: 50,
      prefix: 'delivery',
    });
    // The creator publishes one image on Instagram for the collaboration.
    const image = await sharp({
      create: { width: 640, height: 480, channels: 3, background: '#2f7d5b' },
    })
      .png()
      .toBuffer();
    const url = await uploadFile(creator.token, image, 'shoe.png', 'image/png');
    await connectSandboxByApi(creator.token, 'instagram');
    await api('/api/social/publish', creator.token, {
      method: 'POST',
      body: {
        message: 'First run in the new spring shoe',
        platforms: ['instagram'],
        media_urls: [url],
        selected_collaborations: [collaborationId],
      },
    });

    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 375, height: 812 },
    ]) {
      const browser = await openBrowser(viewport);
      const { page } = browser;
      try {
        await logIn(page, brand.email, MARKET_PASSWORD);
        await page.goto(`${baseUrl()}/dashboard/campaigns/${campaignId}/manage`);
        const collaboration = page.getByTestId('manage-collaborations').getByTestId('collaboration');
        await collaboration.waitFor({ timeout: 20_000 });
        const post = collaboration.getByTestId('delivered-post');
        await post.waitFor();
        expect(await post.count()).toBe(1);
        expect(await post.getAttribute('data-platform')).toBe('instagram');
        expect(await post.textContent()).toContain('First run in the new spring shoe');
        expect(await post.getByTestId('delivered-post-counts-for').textContent()).toContain('Instagram posts');
        // The preview is the creator's image, loaded at its own aspect.
        const preview = post.locator('img');
        await expect
          .poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), {
            timeout: 15_000,
          })
          .toBe(640);
        const link = post.getByTestId('delivered-post-link');
        expect(await link.getAttribute('href')).toMatch(/\/social\/sandbox\/instagram\/posts\/[0-9a-f-]{36}$/);
        expect(await link.textContent()).toContain('Instagram');
        expect(await seriousViolations(page)).toEqual([]);
        mkdirSync(SHOTS, { recursive: true });
        await collaboration.screenshot({ path: path.join(SHOTS, `delivery-collaboration-${viewport.width}.png`) });

        // Mark complete: the dialog names what is missing before the brand pays.
        await collaboration.getByTestId('collaboration-complete').click();
        const dialog = page.getByTestId('complete-confirm');
        await dialog.waitFor();
        const missing = dialog.getByTestId('complete-missing');
        expect(await missing.textContent()).toContain('Only 1 of 3 deliverables are delivered');
        expect(await missing.textContent()).toContain('TikTok videos 0/2');
        expect(await missing.textContent()).not.toContain('Instagram posts');
        expect(await dialog.getByTestId('complete-confirm-yes').textContent()).toContain('anyway');
        await page.screenshot({ path: path.join(SHOTS, `delivery-complete-warning-${viewport.width}.png`) });
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        expect(await collaboration.getAttribute('data-status')).toBe('active');
      } finally {
        await browser.close();
      }
    }
  });
});
