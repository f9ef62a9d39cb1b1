import { spawn } from 'node:child_process';

export interface ScriptRun {
  code: number | null;
  output: string;
}

/**
 * Runs scripts/<name>.ts as `npm run <name>` does, on a data dir and (optionally) a PostgreSQL database, with
 * `env` added (S3 settings, …); resolves with its exit code and everything it printed.
 */
export function runScript(
  name: 'backup' | 'restore',
  args: string[],
  target: { dataDir: string; databaseUrl?: string; env?: Record<string, string> },
): Promise<ScriptRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: target.dataDir, NODE_ENV: 'development', ...target.env };
  delete env.DATABASE_URL;
  delete env.TEST_DB;
  delete env.VITEST;
  if (target.databaseUrl) env.DATABASE_URL = target.databaseUrl;
  const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${name}.ts`, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}
