import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages.ts';

// Runs the real script in a child process against a PGlite database in a temp folder.
describe('npm run create-admin', () => {
  const run = promisify(execFile);
  const root = path.resolve(import.meta.dirname, '../../..');
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-admin-cli-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });
  const env = () => {
    const { DATABASE_URL: _ignored, ...rest } = process.env;
    return { ...rest, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  };

  it('creates then promotes, exit code 0; bad input exits 1 with a message', { timeout: 90_000 }, async () => {
    const script = path.join(root, 'scripts/create-admin.ts');
    const args = ['--import', 'tsx', script, '--email', 'cli@example.com', '--password', 'cli-password-1'];
    const first = await run(process.execPath, args, { cwd: root, env: env() });
    expect(first.stdout).toContain('Created admin cli@example.com');
    const second = await run(process.execPath, args, { cwd: root, env: env() });
    expect(second.stdout).toContain('Promoted cli@example.com to admin');

    const bad = await run(
      process.execPath,
      ['--import', 'tsx', script, '--email', 'cli@example.com', '--password', 'x'],
      {
        cwd: root,
        env: env(),
      },
    ).catch((error: { code: number; stderr: string }) => error);
    expect('code' in bad && bad.code).toBe(1);
    expect('stderr' in bad && bad.stderr).toContain(MESSAGES.validation.passwordTooShort(8));
  });
});
