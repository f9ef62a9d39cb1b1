import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxPosts, socialPosts } from '../../db/schema/index.ts';
import {
  prepareStudio,
  StudioClient,
  type StudioRun,
  startStudioProcess,
  startWorkerProcess,
  targets,
} from './crash-studio.ts';

// `npm run worker` alone (no API process running) sweeps the post scheduler: a post that fell due while only an
// API process without workers ran is published by the worker process.

const BRAND = { email: 'brand@genpro.local', password: 'genpro-brand' };
// Generous: the whole suite runs beside this test on two cores in CI. Waits end as soon as their condition holds.
const WAIT_MS = 120_000;

interface PostView {
  id: string;
  status: string;
  scheduled_time: string;
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

describe.each(targets)('npm run worker on $name', ({ make }) => {
  it('publishes a due scheduled post with no API process running', { timeout: 600_000 }, async () => {
    let run: StudioRun | null = null;
    const { dataDir, target, port } = await prepareStudio(make, 'genpro-worker-', cleanups, () => run);

    // An API process without workers: the user connects a network and schedules a post, which falls due.
    run = await startStudioProcess({
      dataDir,
      port,
      databaseUrl: target.databaseUrl,
      env: { SEED_DEMO: 'true', RUN_WORKERS: 'false', SOCIAL_SCHEDULER_INTERVAL_SECONDS: '1' },
    });
    const api = run;
    const brand = await StudioClient.login(api.baseUrl, BRAND.email, BRAND.password);
    await brand.connectSandbox('instagram');
    const scheduled = await brand.call<{ data: PostView[] }>('POST', '/api/social/scheduled-posts', {
      message: 'published by the worker process',
      // Far enough ahead that the request itself (slow under a loaded CI) still names a future time.
      scheduled_time: new Date(Date.now() + 5_000).toISOString(),
      timezone: 'UTC',
      platforms: ['instagram'],
      // Instagram needs an image or a video in every post (common/rules/social-media.ts).
      media_urls: ['https://cdn.example.com/photo.jpg'],
      mode: 'materials',
    });
    expect(scheduled.status, JSON.stringify(scheduled.json)).toBe(200);
    const [post] = scheduled.json.data;
    if (!post) throw new Error('no post scheduled');
    const dueAt = Date.parse(post.scheduled_time);
    while (Date.now() <= dueAt + 2_000) await new Promise((r) => setTimeout(r, 200));
    const seen = await brand.call<{ data: PostView[] }>('GET', '/api/social/scheduled-posts?filter=all');
    // No workers, so no scheduler in the API process.
    expect(seen.json.data.find((p) => p.id === post.id)?.status).toBe('scheduled');
    await api.stop();

    // The worker process alone, on the same database.
    const startedAt = Date.now();
    run = await startWorkerProcess({ dataDir, port, databaseUrl: target.databaseUrl });
    const worker = run;
    const deadline = Date.now() + WAIT_MS;
    while (!worker.output().includes('"msg":"post published"')) {
      if (Date.now() > deadline) throw new Error(`the worker published nothing:\n${worker.output().slice(-6000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(worker.output()).toContain('"msg":"due scheduled posts handed to the publishing queue"');
    await worker.stop();
    run = null;

    const database = await target.open();
    try {
      const [row] = await database.db.select().from(socialPosts).where(eq(socialPosts.id, post.id));
      expect(row).toMatchObject({ status: 'published' });
      const copies = await database.db.select().from(sandboxPosts).where(eq(sandboxPosts.idempotencyKey, post.id));
      expect(copies).toHaveLength(1);
      expect(row?.externalId).toBe(copies[0]?.id);
      expect(copies[0]?.createdAt.getTime()).toBeGreaterThan(startedAt);
    } finally {
      await database.close();
    }
  });
});
