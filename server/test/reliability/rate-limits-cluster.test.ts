import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { hashPassword } from '../../platform/auth/crypto.ts';
import { createTestUser, type TestUser } from '../fixtures.ts';
import { realPng } from '../security/attack-files.ts';
import { prepareStudio, type StudioRun, startStudioProcess, studioPort, targets } from './crash-studio.ts';

// Issue 26: two API processes on one PostgreSQL database enforce every rate limit once for the cluster. Requests
// alternate between the processes, all in flight together; the number let through equals each limit exactly
// (with counters per process it was twice the limit). PGlite cannot be shared by two processes: PostgreSQL only.

const LIMITS = {
  RATE_LIMIT_AUTH_PER_MINUTE: 5,
  RATE_LIMIT_UPLOADS_PER_MINUTE: 4,
  RATE_LIMIT_TEXT_AGENTS_PER_MINUTE: 3,
  RATE_LIMIT_CHAT_SIGNED_OUT_PER_MINUTE: 3,
};
const PASSWORD = 'cluster-limits-password';

const postgres = targets.find((target) => target.name === 'PostgreSQL');
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

interface Answer {
  status: number;
  code?: string;
  retryAfter: string | null;
}

describe.runIf(postgres)('rate limits across two API processes on one PostgreSQL database', () => {
  const runs: StudioRun[] = [];
  let database: Database;
  let user: TestUser;

  beforeAll(async () => {
    if (!postgres) return;
    const { dataDir, target, port } = await prepareStudio(postgres.make, 'genpro-limits-', cleanups, () => null);
    cleanups.push(async () => {
      for (const run of runs) await run.kill();
    });
    const env = {
      ...Object.fromEntries(Object.entries(LIMITS).map(([name, value]) => [name, String(value)])),
      RUN_WORKERS: 'false',
      SEED_DEMO: 'false',
    };
    // One after the other: the first migrates the database.
    runs.push(await startStudioProcess({ dataDir, port, databaseUrl: target.databaseUrl, env }));
    runs.push(await startStudioProcess({ dataDir, port: await studioPort(), databaseUrl: target.databaseUrl, env }));
    database = await target.open();
    cleanups.push(() => database.close());
    user = await createTestUser(database.db);
    await database.db
      .update(users)
      .set({ passwordHash: await hashPassword(PASSWORD) })
      .where(eq(users.id, user.id));
  }, 300_000);

  /** `count` requests made by `send`, alternating between the two processes, all in flight together. */
  async function burst(count: number, send: (baseUrl: string, i: number) => Promise<Response>): Promise<Answer[]> {
    return Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const res = await send(runs[i % 2].baseUrl, i);
        const body = (await res.json().catch(() => null)) as { code?: string } | null;
        return { status: res.status, code: body?.code, retryAfter: res.headers.get('retry-after') };
      }),
    );
  }

  function expectExactly(answers: Answer[], limit: number, allowedStatus: number): void {
    const allowed = answers.filter((a) => a.status !== 429);
    const refused = answers.filter((a) => a.status === 429);
    expect(allowed.map((a) => a.status)).toEqual(Array(limit).fill(allowedStatus));
    expect(refused).toHaveLength(answers.length - limit);
    for (const answer of refused) {
      expect(answer.code).toBe('rate_limited');
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(60);
    }
  }

  const json = (body: object, token?: string): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

  it('log-ins (per address)', { timeout: 120_000 }, async () => {
    const limit = LIMITS.RATE_LIMIT_AUTH_PER_MINUTE;
    const answers = await burst(limit * 2 + 2, (baseUrl) =>
      fetch(`${baseUrl}/api/auth/login`, json({ email: user.email, password: PASSWORD })),
    );
    expectExactly(answers, limit, 200);
  });

  it('uploads (per user, over both upload routes)', { timeout: 120_000 }, async () => {
    const limit = LIMITS.RATE_LIMIT_UPLOADS_PER_MINUTE;
    const png = `data:image/png;base64,${(await realPng()).toString('base64')}`;
    const answers = await burst(limit * 2 + 2, (baseUrl, i) =>
      i % 4 < 2
        ? fetch(`${baseUrl}/api/upload/base64-to-url`, json({ base64Data: png }, user.token))
        : fetch(`${baseUrl}/api/temp-upload`, json({ videoData: png }, user.token)),
    );
    expectExactly(answers, limit, 200);
  });

  it('text-agent calls (per user)', { timeout: 120_000 }, async () => {
    const limit = LIMITS.RATE_LIMIT_TEXT_AGENTS_PER_MINUTE;
    const script = 'INT. LIGHTHOUSE - NIGHT\nThe keeper climbs the stairs. He lights the lamp.';
    const answers = await burst(limit * 2 + 2, (baseUrl) =>
      fetch(`${baseUrl}/api/ai/movie-agent`, json({ movieScript: script, images: [] }, user.token)),
    );
    expectExactly(answers, limit, 200);
  });

  it('signed-out chat questions (per address)', { timeout: 120_000 }, async () => {
    const limit = LIMITS.RATE_LIMIT_CHAT_SIGNED_OUT_PER_MINUTE;
    const answers = await burst(limit * 2 + 2, (baseUrl) =>
      fetch(`${baseUrl}/api/chat/genpro`, json({ message: 'How do credits work?' })),
    );
    expectExactly(answers, limit, 200);
  });
});
