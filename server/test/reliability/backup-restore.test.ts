import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Campaign } from '../../../common/api/campaigns.ts';
import type { EditorSession } from '../../../common/api/editor-sessions.ts';
import type { CreditHistory } from '../../../common/api/payments.ts';
import type { UploadStatus } from '../../../common/api/uploads.ts';
import { solidPng } from '../fixtures.ts';
import { runScript } from './backup-scripts.ts';
import { prepareStudio, StudioClient, type StudioRun, startStudioProcess, targets } from './crash-studio.ts';

// `npm run backup` of a studio with users, credits, assets with files, an editor session and a campaign;
// `npm run restore` of that archive into an empty studio elsewhere; a studio started there serves all of it,
// over HTTP, files byte for byte. One studio start before and one after, per database.

const BRAND = { email: 'brand@genpro.local', password: 'genpro-brand' };
const PASSWORD = 'correct horse battery';
const WAIT_MS = 120_000;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function fetchBytes(baseUrl: string, url: string, token?: string): Promise<{ status: number; sha: string }> {
  const res = await fetch(`${baseUrl}${url}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, sha: sha256(Buffer.from(await res.arrayBuffer())) };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Sign-up, the mailed code (read from /dev/mail.json as the browser tests do), verification. */
async function registerVerified(baseUrl: string, email: string): Promise<void> {
  const registered = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ first_name: 'Rita', last_name: 'Restore', email, password: PASSWORD, role: 'creator' }),
  });
  expect(registered.status, await registered.clone().text()).toBe(202);
  const mail = (await (await fetch(`${baseUrl}/dev/mail.json?to=${encodeURIComponent(email)}`)).json()) as {
    data: Array<{ text: string }>;
  };
  const code = mail.data[0]?.text.match(/\b(\d{6})\b/)?.[1];
  expect(code).toBeTruthy();
  const verified = await fetch(`${baseUrl}/api/auth/verify-code`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, code }),
  });
  expect(verified.status, await verified.clone().text()).toBe(200);
}

/** A credit top-up paid through the local checkout page, as the browser does (session cookie, form token). */
async function topUp(baseUrl: string, client: StudioClient): Promise<void> {
  const started = await client.call<{ url: string; orderId: string }>('POST', '/api/payment/topup', {
    topupId: 'starter',
    successUrl: '/dashboard?topup=success',
    cancelUrl: '/dashboard?topup=cancelled',
  });
  expect(started.status, JSON.stringify(started.json)).toBe(200);
  const cookie = `genpro_session=${client.token}`;
  const page = await (await fetch(`${baseUrl}${started.json.url}`, { headers: { cookie } })).text();
  const token = page.match(/name="token" value="([0-9a-f]{64})"/)?.[1];
  expect(token).toBeTruthy();
  const paid = await fetch(`${baseUrl}/api/payment/local/${started.json.orderId}/complete`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: token as string }).toString(),
  });
  expect(paid.status).toBe(303);
}

interface Asset {
  id: string;
  url: string;
  thumbnail_url: string | null;
  type: string;
  prompt: string | null;
}

/** What a user sees of their studio, with the sha-256 of every file it links to. */
async function snapshotOf(baseUrl: string, client: StudioClient) {
  const history = await client.call<{ data: CreditHistory }>('GET', '/api/credits/history?limit=100');
  expect(history.status).toBe(200);
  const assets = await client.call<{ data: Asset[] }>('GET', '/api/ai/assets?limit=100');
  expect(assets.status).toBe(200);
  const files: Record<string, string> = {};
  for (const asset of assets.json.data) {
    for (const url of [asset.url, asset.thumbnail_url]) {
      if (!url) continue;
      const file = await fetchBytes(baseUrl, url, client.token);
      expect(file.status, url).toBe(200);
      files[url] = file.sha;
    }
  }
  const sessions = await client.call<{ data: { sessions: Array<{ id: string }> } | Array<{ id: string }> }>(
    'GET',
    '/api/editor-sessions',
  );
  expect(sessions.status).toBe(200);
  return { credits: history.json.data, assets: assets.json.data, files, sessions: sessions.json };
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

describe.each(targets)('backup and restore on $name', ({ make }) => {
  it('restores users, credits, assets with their files, an editor session and a campaign into an empty studio', {
    timeout: 900_000,
  }, async () => {
    let run: StudioRun | null = null;
    const source = await prepareStudio(make, 'genpro-backup-src-', cleanups, () => run);
    const postgres = source.target.databaseUrl !== undefined;
    const from = { dataDir: source.dataDir, databaseUrl: source.target.databaseUrl };
    const work = await mkdtemp(path.join(os.tmpdir(), 'genpro-backup-work-'));
    cleanups.push(() => rm(work, { recursive: true, force: true }));
    const archive = path.join(work, 'studio.tar.gz');

    run = await startStudioProcess({
      dataDir: source.dataDir,
      port: source.port,
      databaseUrl: source.target.databaseUrl,
      env: { SEED_DEMO: 'true' },
    });
    const base = run.baseUrl;

    // A new user, verified, with a paid top-up, an upload, a generated image and an editor session.
    const email = `rita.${Date.now().toString(36)}@example.com`;
    await registerVerified(base, email);
    const rita = await StudioClient.login(base, email, PASSWORD);
    await topUp(base, rita);
    const photo = await solidPng(64, 48, '#3366cc');
    const form = new FormData();
    form.append('type', 'image');
    form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/png' }), 'photo.png');
    const uploadRes = await fetch(`${base}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${rita.token}` },
      body: form,
    });
    expect(uploadRes.status, await uploadRes.clone().text()).toBe(200);
    const uploadId = ((await uploadRes.json()) as { data: { id: string } }).data.id;
    const upload = await until('the upload to be processed', async () => {
      const res = await rita.call<{ data: UploadStatus }>('GET', `/api/upload/${uploadId}`);
      return res.json.data.status === 'ready' ? res.json.data : undefined;
    });
    const generated = await rita.call<{ data: Array<{ url: string }> }>('POST', '/api/ai/generate/image', {
      prompt: 'a lighthouse on a cliff at sunset, kept safe in a backup',
      size: '256x256',
      variations: 1,
    });
    expect(generated.status, JSON.stringify(generated.json)).toBe(200);
    const saved = await rita.call<{ data: EditorSession }>('POST', '/api/editor-sessions', {
      name: 'Backup drill',
      component_type: 'multi-reference',
      data: { referenceImages: [{ id: 'r1', url: generated.json.data[0]?.url, weight: 60 }], prompt: 'blend' },
    });
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);

    // The demo brand's draft campaign, with one of its generated images as material (shown by signed URL).
    const brand = await StudioClient.login(base, BRAND.email, BRAND.password);
    const brandImage = await brand.call<{ data: Array<{ id: string; url: string }> }>(
      'POST',
      '/api/ai/generate/image',
      {
        prompt: 'a running shoe on a mountain trail',
        size: '256x256',
        variations: 1,
      },
    );
    expect(brandImage.status, JSON.stringify(brandImage.json)).toBe(200);
    const brandAssets = await brand.call<{ data: Asset[] }>('GET', '/api/ai/assets');
    const created = await brand.call<{ data: Campaign }>('POST', '/api/campaigns', {
      title: 'Spring trail run',
      description: 'Our new running shoe',
      objective: 'Awareness for the spring running shoe',
      budget: 250,
      platforms: ['instagram'],
      contentTypes: ['video'],
      deliverables: [{ type: 'Instagram reels', quantity: 1, platform: 'instagram', contentType: 'video' }],
      ai_asset_ids: [brandAssets.json.data[0]?.id],
      status: 'draft',
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const campaignId = created.json.data.id;
    const campaignBefore = (await brand.call<{ data: Campaign }>('GET', `/api/campaigns/${campaignId}`)).json.data;
    const signedMaterial = campaignBefore.materials?.[0]?.url ?? '';
    expect(signedMaterial).toContain('sig=');
    const materialSha = (await fetchBytes(base, signedMaterial)).sha;

    const before = await snapshotOf(base, rita);
    const sessionBefore = (
      await rita.call<{ data: EditorSession }>('GET', `/api/editor-sessions/${saved.json.data.id}`)
    ).json.data;
    const uploadBefore = await fetchBytes(base, upload.url, rita.token);
    expect(uploadBefore.sha).toBe(sha256(photo));
    expect(before.credits.transactions.some((t) => t.source === 'purchase' && t.amount === 100)).toBe(true);
    expect(before.assets.length).toBeGreaterThanOrEqual(1);
    expect(Object.keys(before.files).length).toBeGreaterThanOrEqual(2);

    if (postgres) {
      // PostgreSQL is backed up while the studio runs (one snapshot for the counts and pg_dump).
      const backup = await runScript('backup', ['--out', archive], from);
      expect(backup.code, backup.output).toBe(0);
      await run.stop();
    } else {
      const refused = await runScript('backup', ['--out', archive], from);
      expect(refused.code, refused.output).toBe(2);
      expect(refused.output).toContain('stop the studio first');
      await run.stop();
      const backup = await runScript('backup', ['--out', archive], from);
      expect(backup.code, backup.output).toBe(0);
      expect(backup.output).toMatch(/database: PGlite .*schema \d{4}_\w+: \d+ users/);
    }
    run = null;

    // An archive from a newer schema is refused before anything is touched.
    if (!postgres) {
      const future = path.join(work, 'future');
      await rm(future, { recursive: true, force: true });
      await mkdir(future);
      await runTar(['-xzf', archive, '-C', future]);
      const manifest = JSON.parse(await readFile(path.join(future, 'manifest.json'), 'utf8'));
      manifest.schema = { ...manifest.schema, tag: '9999_from_the_future', when: manifest.schema.when + 86_400_000 };
      await writeFile(path.join(future, 'manifest.json'), JSON.stringify(manifest));
      const futureArchive = path.join(work, 'future.tar.gz');
      await runTar(['-czf', futureArchive, '-C', future, '.']);
      const emptyDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-backup-future-'));
      cleanups.push(() => rm(emptyDir, { recursive: true, force: true }));
      const refused = await runScript('restore', [futureArchive], { dataDir: emptyDir });
      expect(refused.code, refused.output).toBe(2);
      expect(refused.output).toContain('newer schema (9999_from_the_future');
    }

    // Restore into an empty studio: a fresh data dir, and a new empty PostgreSQL database.
    let restoredRun: StudioRun | null = null;
    let to: { dataDir: string; databaseUrl?: string; port: number };
    if (postgres) {
      const target = await prepareStudio(make, 'genpro-backup-dst-', cleanups, () => restoredRun);
      to = { dataDir: target.dataDir, databaseUrl: target.target.databaseUrl, port: target.port };
    } else {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-backup-dst-'));
      cleanups.push(async () => {
        await restoredRun?.kill();
        await rm(dataDir, { recursive: true, force: true });
      });
      to = { dataDir, port: source.port };
    }
    const restore = await runScript('restore', [archive], to);
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toContain('Restored the backup of');
    expect(restore.output).toMatch(/media: \d+ files/);

    // A second restore into the same (now full) studio is refused.
    const again = await runScript('restore', [archive], to);
    expect(again.code, again.output).toBe(2);
    expect(again.output).toContain('The target studio is not empty');

    restoredRun = await startStudioProcess({ dataDir: to.dataDir, port: to.port, databaseUrl: to.databaseUrl });
    const restoredBase = restoredRun.baseUrl;

    // The user logs in with their password; the session token from before the backup still works too.
    const ritaAfter = await StudioClient.login(restoredBase, email, PASSWORD);
    const oldSession = await new StudioClient(restoredBase, rita.token).call('GET', '/api/auth/me');
    expect(oldSession.status).toBe(200);

    const after = await snapshotOf(restoredBase, ritaAfter);
    expect(after.credits).toEqual(before.credits);
    expect(after.assets).toEqual(before.assets);
    expect(after.files).toEqual(before.files);
    expect(after.sessions).toEqual(before.sessions);
    const sessionAfter = await ritaAfter.call<{ data: EditorSession }>(
      'GET',
      `/api/editor-sessions/${saved.json.data.id}`,
    );
    expect(sessionAfter.json.data).toEqual(sessionBefore);
    const uploadAfter = await ritaAfter.call<{ data: UploadStatus }>('GET', `/api/upload/${uploadId}`);
    expect(uploadAfter.json.data).toEqual(upload);
    expect(await fetchBytes(restoredBase, upload.url, ritaAfter.token)).toEqual(uploadBefore);

    const brandAfter = await StudioClient.login(restoredBase, BRAND.email, BRAND.password);
    const campaignAfter = (await brandAfter.call<{ data: Campaign }>('GET', `/api/campaigns/${campaignId}`)).json.data;
    const unsigned = (c: Campaign) =>
      JSON.parse(JSON.stringify(c).replace(/\?expires=\d+&sig=[A-Za-z0-9_-]+/g, '')) as Campaign;
    expect(unsigned(campaignAfter)).toEqual(unsigned(campaignBefore));
    // A media link signed before the backup still opens: the signing secret came back with the data.
    expect(await fetchBytes(restoredBase, signedMaterial)).toEqual({ status: 200, sha: materialSha });

    await restoredRun.stop();
    restoredRun = null;
  });
});

function runTar(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('tar', args, { stdio: 'ignore' });
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`tar ${args.join(' ')}: ${code}`))));
  });
}
