import sharp from 'sharp';
import { describe, it } from 'vitest';
import { baseUrl, expect, freshCreator, openBrowser, shot } from './browser.ts';

function solidPng(r: number, g: number, b: number): Promise<Buffer> {
  return sharp({ create: { width: 256, height: 256, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
}

describe('AI personas', () => {
  it('creates a persona, watches it become ready, makes a persona video and adds it to the workspace', {
    timeout: 300_000,
  }, async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await freshCreator(page);
      const name = `Ava ${Date.now() % 100_000}`;

      // A fresh creator sees the directory's empty state.
      await page.goto(`${baseUrl()}/dashboard?view=aiPersonas`);
      await page.getByTestId('personas-empty').waitFor();
      expect(await page.getByTestId('personas-empty').textContent()).toContain('You have not created any Personas yet');

      // Build Your Persona: the required-fields alert first.
      await page.getByTestId('persona-create').first().click();
      await page.getByTestId('build-persona-dialog').waitFor();
      await page.getByTestId('persona-submit').click();
      expect(await page.getByTestId('form-error').textContent()).toContain(
        'Please fill in the required fields: Name and Description',
      );
      expect(await page.getByTestId('persona-personality').inputValue()).toBe('Professional');
      expect(await page.getByTestId('persona-language').inputValue()).toBe('English');

      await page.getByTestId('persona-name').fill(name);
      await page.getByTestId('persona-description').fill('A friendly fitness coach who loves sunrise runs.');
      await page
        .getByTestId('persona-images-input')
        .setInputFiles([{ name: 'look.png', mimeType: 'image/png', buffer: await solidPng(200, 120, 90) }]);
      // Two tags (a duplicate with spaces is ignored), added with Enter.
      const tagInput = page.getByTestId('persona-tag-input');
      for (const tag of ['fitness', 'wellness', '  Fitness ']) {
        await tagInput.fill(tag);
        await tagInput.press('Enter');
      }
      expect(await page.getByTestId('persona-tag').allTextContents()).toEqual(['fitness', 'wellness']);
      await page.locator('[data-testid="persona-images-item"][data-status="done"]').waitFor({ timeout: 30_000 });
      await page.getByTestId('persona-submit').click();

      // Creation progress until ready, with the five images.
      await page.getByTestId('persona-creation').waitFor();
      await page.locator('[data-testid="persona-creation"][data-status="ready"]').waitFor({ timeout: 180_000 });
      const images = page.getByTestId('persona-creation').getByTestId('persona-image');
      expect(await images.count()).toBe(5);
      await expect
        .poll(
          () =>
            images
              .locator('img')
              .evaluateAll((list) =>
                list.filter((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0),
              )
              .then((list) => list.length),
          { timeout: 30_000 },
        )
        .toBe(5);

      // The detail dialog: a persona video, from prompt to the result dialog.
      await page.getByTestId('persona-open-created').click();
      await page.getByTestId('persona-detail').waitFor();
      await page.getByTestId('persona-video-generate').click();
      expect(await page.getByTestId('form-error').textContent()).toContain(
        'Please enter a video prompt describing what you want the persona to do.',
      );
      await page.getByTestId('persona-video-prompt').fill('She waves at the camera and smiles on a sunny beach.');
      await page.getByTestId('persona-video-generate').click();
      expect(await page.getByTestId('form-error').textContent()).toContain(
        'Please select which persona image type to use for video generation.',
      );
      await page.getByTestId('persona-video-image-portrait').click();
      expect(await page.getByTestId('persona-video-cost').textContent()).toContain('21');
      await page.getByTestId('persona-video-generate').click();
      await page.getByTestId('video-progress').waitFor();
      await page.getByTestId('video-result-dialog').waitFor({ timeout: 240_000 });
      const src = await page.getByTestId('video-result-dialog').getByTestId('video-result').getAttribute('src');
      expect(src).toBeTruthy();
      const video = await page.request.get(new URL(src ?? '', baseUrl()).toString());
      expect(video.status()).toBe(200);
      expect(video.headers()['content-type']).toContain('video/');
      await page.keyboard.press('Escape');
      await page.getByTestId('video-result-dialog').waitFor({ state: 'detached' });
      expect(await page.getByTestId('persona-video-done').textContent()).toContain(
        'Made with the local preview engine',
      );

      // A new image of the persona: shown at its size, and it says which engine made it.
      await page.getByTestId('persona-section-image').click();
      await page.getByTestId('persona-image-prompt').fill('Reading a map at a harbour cafe');
      await page.getByTestId('persona-image-generate').click();
      const imageResult = page.getByTestId('persona-image-result');
      await imageResult.waitFor({ timeout: 120_000 });
      expect(await imageResult.getByTestId('engine-badge').getAttribute('data-engine')).toBe('local');
      expect(await imageResult.getByTestId('engine-badge').textContent()).toContain(
        'Made with the local preview engine',
      );
      await expect
        .poll(() => imageResult.locator('img').evaluate((i) => (i as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
      await imageResult.scrollIntoViewIfNeeded();
      await shot(page, 'persona-image-result');
      await page.getByTestId('persona-section-video').click();

      // Add to the campaign workspace; a second add says it is already there.
      await page.getByTestId('persona-add-workspace').click();
      await page.locator('[data-testid="persona-workspace-notice"][data-kind="added"]').waitFor();
      await page.getByTestId('persona-add-workspace').click();
      await page.locator('[data-testid="persona-workspace-notice"][data-kind="duplicate"]').waitFor();
      expect(await page.getByTestId('persona-workspace-notice').textContent()).toContain(
        'already added to the campaign workspace',
      );

      // The directory lists it; the Campaigns tab's workspace panel holds it.
      await page.keyboard.press('Escape');
      await page.goto(`${baseUrl()}/dashboard?view=aiPersonas`);
      await page.locator(`[data-testid="persona-card"][data-name="${name}"]`).waitFor();

      // The studio's Personas tab lists it among the ready ones; one still being made waits under 'In progress'
      // (here the reply is changed in flight to say so: a real generation finishes too fast to catch).
      await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=personas`);
      const studioCard = page.getByTestId('persona-list').locator(`[data-testid="persona-card"][data-name="${name}"]`);
      await studioCard.waitFor();
      expect(await page.getByTestId('personas-in-progress').count()).toBe(0);
      await page.route('**/api/personas', async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { data: { name: string; status: string }[] };
        body.data = body.data.map((p) => (p.name === name ? { ...p, status: 'generating' } : p));
        await route.fulfill({ response, json: body });
      });
      await page.reload();
      const inProgress = page.getByTestId('personas-in-progress');
      await inProgress.locator(`[data-testid="persona-card"][data-name="${name}"]`).waitFor();
      expect(await inProgress.getByRole('heading').textContent()).toBe('In progress');
      expect(await page.getByTestId('persona-list').count()).toBe(0);
      await page.unroute('**/api/personas');

      await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=campaigns`);
      const item = page.locator('[data-testid="workspace-item"][data-type="persona"]');
      await item.waitFor();
      expect(await item.textContent()).toContain(name);
    } finally {
      await browser.close();
    }
  });
});
