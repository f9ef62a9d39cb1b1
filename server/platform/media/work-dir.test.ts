import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkDir, sweepDeadWorkDirs } from './work-dir.ts';

describe('scratch folders of media work', () => {
  let base: string;
  beforeAll(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'genpro-sweep-test-'));
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('live under this process id', async () => {
    const dir = await makeWorkDir('engine');
    expect(dir).toContain(path.join('genpro-work', String(process.pid), 'engine-'));
    expect(existsSync(dir)).toBe(true);
    await rm(dir, { recursive: true });
  });

  it("sweeps at start what a killed process left, and never a running process's folder", async () => {
    const root = path.join(base, 'genpro-work');
    const tmp = path.join(base, 'tmp');
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const dead = path.join(root, String(deadPid), 'engine-abc');
    const live = path.join(root, String(process.pid), 'engine-def');
    const oldLegacy = path.join(tmp, 'genpro-engine-old');
    const freshLegacy = path.join(tmp, 'genpro-engine-new');
    const unrelated = path.join(tmp, 'someone-else');
    for (const dir of [dead, live, oldLegacy, freshLegacy, unrelated]) {
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'frame.png'), 'x');
    }
    const dayAgo = new Date(Date.now() - 86_400_000);
    await utimes(oldLegacy, dayAgo, dayAgo);
    await utimes(unrelated, dayAgo, dayAgo);

    expect(await sweepDeadWorkDirs({ root, tmp })).toBe(2);
    expect(existsSync(path.join(root, String(deadPid)))).toBe(false);
    expect(existsSync(oldLegacy)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(freshLegacy)).toBe(true);
    expect(existsSync(unrelated)).toBe(true);
  });
});
