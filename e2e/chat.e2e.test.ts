import { describe, it } from 'vitest';
import { seriousViolations } from './axe.ts';
import { baseUrl, expect, freshCreator, openBrowser, signUpByApi, uniqueEmail } from './browser.ts';

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

  it('answers visitors who are not signed in on the home page, and a follow-up keeps the subject with live prices', {
    timeout: 120_000,
  }, async () => {
    // The price list the studio charges (GET /api/ai/engines needs an account; the visitor below has none).
    const { token } = await signUpByApi({
      first_name: 'Pia',
      last_name: 'Prices',
      email: uniqueEmail('chat-prices'),
      password: 'amber-signal-harbor-4',
      role: 'creator',
    });
    const engines = (await (
      await fetch(`${baseUrl()}/api/ai/engines`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as {
      prices: { local: { videoPro: number; videoStandard: number; image: number }; vendor: { image: number } };
    };
    const { videoPro, videoStandard, image } = engines.prices.local;
    // The journeys' studio charges 2 for an image on its local engines, the vendor list 4 (global-setup.ts).
    expect(image).not.toBe(engines.prices.vendor.image);

    const browser = await openBrowser({ width: 1440, height: 900 });
    const { page } = browser;
    try {
      await page.goto(`${baseUrl()}/`);
      expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBe(null);
      const chat = page.getByTestId('home-chat');
      await chat.scrollIntoViewIfNeeded();
      const input = chat.getByTestId('chat-input');
      await input.fill('How do I make a video?');
      await input.press('Enter');
      const answers = chat.getByTestId('chat-message-assistant');
      await answers.first().getByTestId('chat-source').first().waitFor({ timeout: 20_000 });
      expect(await answers.first().getByTestId('chat-answer').innerText()).toContain('Pick a model and a duration.');

      await input.fill('and how much does it cost?');
      await input.press('Enter');
      await expect.poll(() => answers.count()).toBe(2);
      const followUp = answers.nth(1);
      await followUp.getByTestId('chat-source').first().waitFor({ timeout: 20_000 });
      const text = await followUp.getByTestId('chat-answer').innerText();
      expect(text.startsWith('Videos:')).toBe(true);
      expect(text).toContain(`Veo with audio: ${videoPro} credits. Veo without audio: ${videoStandard} credits.`);
      expect(text).toContain('on the local preview engine');
      expect(text).toContain(`Images: ${image} credits each up to 2048 px`);
      expect(text).not.toContain('{credits:');
      expect(await seriousViolations(page)).toEqual([]);
      await chat.screenshot({ path: '/tmp/library-chat-home-chat-1440.png' });
    } finally {
      await browser.close();
    }
  });
});
