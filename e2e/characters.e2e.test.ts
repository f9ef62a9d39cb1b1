import sharp from 'sharp';
import { describe, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { baseUrl, expect, freshCreator, openBrowser, shot } from './browser.ts';

// The Characters side tool end to end: the dialog's validation, create with an uploaded image, edit, generate an
// image with the selected character (its engine named under it), and delete; the list survives a reload.

function portraitPng(): Promise<Buffer> {
  return sharp({ create: { width: 320, height: 400, channels: 3, background: { r: 180, g: 90, b: 60 } } })
    .png()
    .toBuffer();
}

describe('Characters tool', () => {
  it('creates, edits, generates with and deletes a character', { timeout: 180_000 }, async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      const token = await freshCreator(page);
      await page.goto(`${baseUrl()}/dashboard?view=genproStudio&tab=creator&mode=image`);
      await page.getByTestId('tool-characters').click();
      const panel = page.getByTestId('characters');
      await panel.getByText('No characters yet. Create one to get started.').waitFor();

      // Generating with nobody selected says what is missing.
      await panel.getByTestId('characters-generate').click();
      await expect
        .poll(() => panel.getByRole('alert').textContent())
        .toBe('Please enter a prompt and select at least one character');

      // The dialog refuses a character without its required fields, and keeps what was typed.
      await panel.getByTestId('character-create').click();
      const dialog = page.getByRole('dialog', { name: 'New character' });
      await dialog.getByTestId('character-name').fill('Mira');
      await dialog.getByTestId('character-save').click();
      await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('Please fill in all required fields');
      expect(await dialog.getByTestId('character-name').inputValue()).toBe('Mira');

      await dialog.getByLabel('Description').fill('A lighthouse keeper with copper hair');
      await dialog.getByTestId('character-image').setInputFiles({
        name: 'mira.png',
        mimeType: 'image/png',
        buffer: await portraitPng(),
      });
      await dialog.locator('img').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      // The actions stay in view while the fields scroll.
      const save = dialog.getByTestId('character-save');
      const box = await save.boundingBox();
      expect(box && box.y + box.height).toBeLessThanOrEqual(800);
      await shot(page, 'characters-dialog');
      await dialog.getByTestId('character-save').click();
      await dialog.waitFor({ state: 'detached' });
      const item = panel.getByTestId('character-item');
      await expect.poll(() => item.count()).toBe(1);
      expect(await item.textContent()).toContain('Mira');

      // Edit, on a phone: the dialog opens on the saved values and fits the screen; the new name replaces the old
      // one in the list.
      await page.setViewportSize({ width: 375, height: 740 });
      await panel.getByRole('button', { name: 'Edit Mira' }).click();
      const editDialog = page.getByRole('dialog', { name: 'Edit character' });
      const phoneBox = await editDialog.boundingBox();
      expect(phoneBox && [phoneBox.x >= 0, phoneBox.x + phoneBox.width <= 375]).toEqual([true, true]);
      await shot(page, 'characters-dialog-375');
      expect(await editDialog.getByLabel('Description').inputValue()).toBe('A lighthouse keeper with copper hair');
      await editDialog.getByTestId('character-name').fill('Mira Vale');
      await editDialog.getByTestId('character-save').click();
      await editDialog.waitFor({ state: 'detached' });
      await expect.poll(() => item.first().textContent()).toContain('Mira Vale');
      await page.setViewportSize({ width: 1280, height: 800 });

      // Stored on the server: a reload shows the same character.
      await page.reload();
      await page.getByTestId('tool-characters').click();
      await expect.poll(() => panel.getByTestId('character-item').count()).toBe(1);
      const listed = await fetch(`${baseUrl()}/api/characters`, { headers: { authorization: `Bearer ${token}` } });
      const stored = (await listed.json()) as { data: Array<{ name: string; description: string }> };
      expect(stored.data.map((c) => [c.name, c.description])).toEqual([
        ['Mira Vale', 'A lighthouse keeper with copper hair'],
      ]);

      // Generate an image with her: the result decodes, and says which engine made it.
      await panel.getByRole('checkbox').check();
      await panel.getByLabel('Content prompt').fill('walking along the harbour wall at dawn');
      await panel.getByTestId('characters-generate').click();
      const result = panel.getByTestId('characters-result');
      await result.locator('img').waitFor({ timeout: 120_000 });
      const badge = result.getByTestId('engine-badge');
      expect(await badge.getAttribute('data-engine')).toBe('local');
      expect(await badge.textContent()).toMatch(/local/i);
      const src = (await result.locator('img').getAttribute('src')) ?? '';
      const image = await fetch(src.startsWith('http') ? src : `${baseUrl()}${src}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(image.status).toBe(200);
      const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
      expect(meta.width).toBeGreaterThan(0);
      expect(meta.width).toBe(meta.height);
      await shot(page, 'characters-result');
      // The new image is in "Your Media Assets" without a reload.
      await expect.poll(() => page.getByTestId('asset-card').count(), { timeout: 30_000 }).toBe(1);

      // Delete.
      await panel.getByRole('button', { name: 'Delete Mira Vale' }).click();
      await expect.poll(() => panel.getByTestId('character-item').count()).toBe(0);
      await panel.getByText('No characters yet. Create one to get started.').waitFor();
    } finally {
      await browser.close();
    }
  });
});
