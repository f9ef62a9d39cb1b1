import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type StudioProcess, startStudio } from '../scripts/studio-process.ts';
import { type LinkedinFake, startLinkedinFake } from '../server/test/fakes/linkedin.ts';
import { startTwitterFake, type TwitterFake } from '../server/test/fakes/twitter.ts';
import { makeTestClip, solidPng } from '../server/test/fixtures.ts';
import { seriousViolations } from './axe.ts';
import { expect, logIn, openBrowser } from './browser.ts';

// Issue 28: X and LinkedIn in live mode, their APIs played by the local fakes (server/test/fakes). A creator
// connects both through the networks' consent pages, publishes an image and a video (uploaded to each network,
// not linked), and sees each network's figures: followers on the accounts, views and likes on the posts.

const SHOTS = path.resolve('test-results', 'screenshots');
const CLIENT = { id: 'e2e-client', secret: 'e2e-secret' };
const JSON_HEADERS = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };

describe('live X and LinkedIn, in the browser', () => {
  let studio: StudioProcess;
  let x: TwitterFake;
  let li: LinkedinFake;
  beforeAll(async () => {
    x = await startTwitterFake(CLIENT);
    li = await startLinkedinFake(CLIENT);
    studio = await startStudio('e2e-social-live', {
      env: {
        TWITTER_CLIENT_ID: CLIENT.id,
        TWITTER_CLIENT_SECRET: CLIENT.secret,
        TWITTER_API_BASE: x.base,
        TWITTER_AUTH_BASE: x.base,
        LINKEDIN_CLIENT_ID: CLIENT.id,
        LINKEDIN_CLIENT_SECRET: CLIENT.secret,
        LINKEDIN_API_BASE: li.base,
        LINKEDIN_AUTH_BASE: li.base,
        // The figures are read again every 2 s (those older than 4 s), so the journey sees the networks' changes.
        SOCIAL_METRICS_REFRESH_SECONDS: '2',
      },
    });
  }, 180_000);
  afterAll(async () => {
    await studio?.stop();
    await x?.close();
    await li?.close();
  });

  /** The demo creator's session token. */
  async function creatorToken(): Promise<string> {
    const res = await fetch(`${studio.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ email: 'creator@genpro.local', password: 'genpro-creator' }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { token: string } }).data.token;
  }

  /** Uploads a file and keeps it as one of the creator's assets (what the Publish Now picker offers). */
  async function asset(token: string, bytes: Buffer, type: 'image' | 'video', name: string): Promise<string> {
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(bytes)], { type: type === 'image' ? 'image/png' : 'video/mp4' }),
      name,
    );
    const uploaded = await fetch(`${studio.baseUrl}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const text = await uploaded.text();
    expect(uploaded.status, text).toBe(200);
    const { url } = (JSON.parse(text) as { data: { url: string } }).data;
    const created = await fetch(`${studio.baseUrl}/api/ai/assets`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` },
      body: JSON.stringify({ type, url, prompt: name, status: 'completed' }),
    });
    expect(created.status, await created.clone().text()).toBe(200);
    return ((await created.json()) as { data: { id: string } }).data.id;
  }

  /** Connects a live network: its consent page (the fake's) opens in a new tab; Allow returns to the studio. */
  async function connect(page: Page, platform: 'twitter' | 'linkedin'): Promise<void> {
    const row = page.getByTestId(`social-${platform}`);
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 20_000 }).toBe('disconnected');
    const [consent] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByTestId(`social-${platform}-connect`).click(),
    ]);
    await consent.getByRole('link', { name: 'Allow' }).waitFor({ timeout: 20_000 });
    expect(consent.url().startsWith(platform === 'twitter' ? x.base : li.base)).toBe(true);
    const closed = consent.waitForEvent('close', { timeout: 20_000 });
    await consent.getByRole('link', { name: 'Allow' }).click();
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 20_000 }).toBe('connected');
    await closed;
  }

  /** Publish Now of one of the creator's assets to X and LinkedIn; waits for both results. */
  async function publish(page: Page, assetId: string, message: string): Promise<void> {
    await page.goto(`${studio.baseUrl}/dashboard?view=genproStudio&tab=publish`);
    await page.getByTestId('publish-tab').waitFor();
    await page.getByTestId('publish-subtab-now').click();
    await page.getByTestId('publish-source-materials').click();
    await page.getByTestId('publish-message').fill(message);
    const material = page.locator(`[data-testid="publish-material"][data-id="${assetId}"]`);
    await material.click();
    expect(await material.getAttribute('aria-pressed')).toBe('true');
    for (const platform of ['twitter', 'linkedin']) {
      const box = page.getByTestId(`publish-platform-${platform}`);
      if (!(await box.locator('input').isChecked())) await box.click();
    }
    await page.getByTestId('generate-button').click();
    for (const platform of ['twitter', 'linkedin']) {
      await expect
        .poll(() => page.getByTestId(`publish-result-${platform}`).getAttribute('data-status'), { timeout: 60_000 })
        .toBe('published');
    }
  }

  it('connects X and LinkedIn, publishes an image and a video as uploaded media, and shows their figures', {
    timeout: 300_000,
  }, async () => {
    const token = await creatorToken();
    const png = await solidPng(64, 48, '#2a9d8f');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'genpro-live-clip-'));
    let clip: Buffer;
    try {
      clip = await makeTestClip({}, dir, { seconds: 4, width: 640, height: 360, fps: 30 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const imageAsset = await asset(token, png, 'image', 'live-image.png');
    const videoAsset = await asset(token, clip, 'video', 'live-clip.mp4');

    const { page, close } = await openBrowser();
    try {
      await logIn(page, 'creator@genpro.local', 'genpro-creator', studio.baseUrl);
      await page.goto(`${studio.baseUrl}/dashboard?view=genproStudio&tab=publish`);
      await page.getByTestId('social-accounts').waitFor();
      await connect(page, 'twitter');
      await connect(page, 'linkedin');
      // X reports the followers at connect.
      await expect
        .poll(() => page.getByTestId('social-twitter').textContent(), { timeout: 20_000 })
        .toContain('42 followers');

      await publish(page, imageAsset, 'Sunrise still, live on X and LinkedIn');
      const tweet = x.posts.at(-1);
      expect(tweet?.body.text).toBe('Sunrise still, live on X and LinkedIn');
      const [imageId] = (tweet!.body.media as { media_ids: string[] }).media_ids;
      expect(x.media.get(imageId as string)?.bytes?.equals(png)).toBe(true);
      const share = li.posts.at(-1);
      expect(share?.body.commentary).toBe('Sunrise still, live on X and LinkedIn');
      const imageUrn = (share!.body.content as { media: { id: string } }).media.id;
      expect(li.media.get(imageUrn)?.bytes?.equals(png)).toBe(true);

      await publish(page, videoAsset, 'The sunrise, in motion');
      const videoTweet = x.posts.at(-1);
      expect(videoTweet?.body.text).toBe('The sunrise, in motion');
      const [videoId] = (videoTweet!.body.media as { media_ids: string[] }).media_ids;
      expect(x.media.get(videoId as string)).toMatchObject({ category: 'tweet_video', state: 'succeeded' });
      expect(x.media.get(videoId as string)?.bytes?.equals(clip)).toBe(true);
      const videoShare = li.posts.at(-1);
      const videoUrn = (videoShare!.body.content as { media: { id: string } }).media.id;
      expect(videoUrn).toMatch(/^urn:li:video:/);
      expect(li.media.get(videoUrn)?.bytes?.equals(clip)).toBe(true);
      // No link in any text: the files were uploaded.
      for (const post of [...x.posts, ...li.posts]) {
        expect(String(post.body.text ?? post.body.commentary)).not.toContain('http');
      }

      // The networks' figures change; the refresh pass reads them into the studio.
      x.followers = 1520;
      li.followers = 830;
      x.metrics.set(`${1000 + x.posts.length}`, { views: 4200, likes: 310, comments: 12, reposts: 20, quotes: 4 });
      li.metrics.set(`urn:li:share:${7000 + li.posts.length}`, { likes: 95, comments: 7 });
      // The accounts, in the account dialog's Social tab: each network's followers as it reports them now.
      const accounts = page.getByTestId('account-social');
      await expect
        .poll(
          async () => {
            await page.goto(`${studio.baseUrl}/dashboard?view=genproStudio&tab=publish&account=social`);
            await accounts.getByTestId('social-linkedin').waitFor();
            return [
              await accounts.getByTestId('social-twitter').textContent(),
              await accounts.getByTestId('social-linkedin').textContent(),
            ].join(' | ');
          },
          { timeout: 60_000, interval: 2000 },
        )
        .toMatch(/1\.5K followers.*\| .*830 followers/);
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SHOTS, 'social-live-accounts.png'), fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);

      await page.goto(`${studio.baseUrl}/dashboard?view=genproStudio&tab=publish`);
      await page.getByTestId('publish-tab').waitFor();
      await page.getByTestId('publish-subtab-scheduled').click();
      await page.getByTestId('scheduled-posts').waitFor();
      await page.getByTestId('posts-filter-all').click();
      const videoPost = (platform: string) =>
        page
          .locator(`[data-testid="scheduled-post"][data-status="published"][data-platform="${platform}"]`)
          .filter({ hasText: 'The sunrise, in motion' });
      await expect
        .poll(() => videoPost('twitter').getByTestId('scheduled-post-views').getAttribute('data-value'), {
          timeout: 30_000,
        })
        .toBe('4200');
      expect(await videoPost('twitter').getByTestId('scheduled-post-likes').innerText()).toBe('Likes: 310');
      expect(await videoPost('linkedin').getByTestId('scheduled-post-likes').innerText()).toBe('Likes: 95');
      // LinkedIn reports no views of member posts: none shown rather than 0.
      expect(await videoPost('linkedin').getByTestId('scheduled-post-views').count()).toBe(0);
      await page.screenshot({ path: path.join(SHOTS, 'social-live-figures.png'), fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await close();
    }
  });
});
