import { describe, it } from 'vitest';
import { baseUrl, expect, freshCreator, openBrowser } from './browser.ts';

describe('chat with GenPro', () => {
  it('answers how to compile a master video with its source page, and keeps the conversation', {
    timeout: 120_000,
  }, async () => {
    const browser = await openBrowser();
    const { page } = browser;
    try {
      await freshCreator(page);
      await page.goto(`${baseUrl()}/dashboard?view=chatWithGenPro`);
      await page.getByTestId('chat-view').waitFor();
      await page.getByTestId('chat-empty').waitFor();
      const input = page.getByTestId('chat-input');

      // Whitespace only: nothing is sent.
      await input.fill('   ');
      await input.press('Enter');
      expect(await page.getByTestId('chat-message-user').count()).toBe(0);

      // Shift+Enter adds a line instead of sending.
      await input.fill('How do I compile');
      await input.press('Shift+Enter');
      await input.pressSequentially('a master video?');
      expect(await input.inputValue()).toBe('How do I compile\na master video?');
      expect(await page.getByTestId('chat-message-user').count()).toBe(0);
      await input.press('Enter');

      await expect.poll(() => page.getByTestId('chat-message-user').count()).toBe(1);
      const answer = page.getByTestId('chat-message-assistant').last();
      await answer.getByTestId('chat-source').waitFor({ timeout: 20_000 });
      expect(await answer.getByTestId('chat-answer').innerText()).toContain(
        'To compile the master video, every sequence item must be completed first.',
      );
      const source = answer.getByTestId('chat-source');
      expect((await source.innerText()).trim()).toBe('Cinema sequences and the master video');
      // The source is shown once, as the help page's title with its link, never as a file path (issue 18).
      const bubble = await answer.innerText();
      expect(bubble.split('Cinema sequences and the master video').length - 1).toBe(1);
      expect(bubble).not.toContain('docs/help');
      expect(bubble).not.toContain('.md');
      expect(await source.getAttribute('href')).toBe('/api/help/sequences');
      expect(await input.inputValue()).toBe('');

      // The source opens the help page.
      await source.click();
      const dialog = page.getByTestId('help-page-dialog');
      await dialog.getByText('Compiling the master video').waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // The conversation survives a reload within the browser session.
      await page.reload();
      await page.getByTestId('chat-view').waitFor();
      await expect.poll(() => page.getByTestId('chat-message-assistant').count()).toBe(1);
      expect(await page.getByTestId('chat-source').first().innerText()).toContain(
        'Cinema sequences and the master video',
      );
    } finally {
      await browser.close();
    }
  });
});
