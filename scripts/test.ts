import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { scanLogDir, TEST_LOG_DIR } from '../server/test/security/log-secrets.ts';
import { ensureChromium } from './chromium.ts';

// `npm test`: type-check, lint, the Vitest suites (PGlite, and PostgreSQL when DATABASE_URL is set),
// then the browser journeys in real Chromium. Ends with one "N passed, N failed" line.

const log = (line: string) => process.stdout.write(`${line}\n`);
const tmp = path.resolve('.tmp');
mkdirSync(tmp, { recursive: true });
// The test apps and the browser-test studio log here; the last step checks these logs for secrets.
rmSync(TEST_LOG_DIR, { recursive: true, force: true });

interface StepResult {
  name: string;
  ok: boolean;
  passed: number;
  failed: number;
}
const results: StepResult[] = [];

function run(name: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): boolean {
  log(`\n▶ ${name}: ${command} ${args.join(' ')}`);
  const res = spawnSync(command, args, { stdio: 'inherit', env });
  return res.status === 0;
}

function vitest(name: string, configArgs: string[], env: NodeJS.ProcessEnv = process.env): void {
  const out = path.join(tmp, `${name}.json`);
  rmSync(out, { force: true });
  const ok = run(
    name,
    process.execPath,
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      ...configArgs,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}`,
    ],
    env,
  );
  let passed = 0;
  let failed = 0;
  try {
    const report = JSON.parse(readFileSync(out, 'utf8')) as { numPassedTests: number; numFailedTests: number };
    passed = report.numPassedTests;
    failed = report.numFailedTests;
  } catch {
    failed = Math.max(failed, ok ? 0 : 1);
  }
  results.push({ name, ok, passed, failed: ok ? failed : Math.max(failed, 1) });
}

const typecheckOk = run('typecheck', process.execPath, [
  'node_modules/typescript/bin/tsc',
  '-p',
  'tsconfig.json',
  '--noEmit',
]);
results.push({ name: 'typecheck', ok: typecheckOk, passed: typecheckOk ? 1 : 0, failed: typecheckOk ? 0 : 1 });
const lintOk = run('lint', 'npm', ['run', '-s', 'lint']);
results.push({ name: 'lint', ok: lintOk, passed: lintOk ? 1 : 0, failed: lintOk ? 0 : 1 });

if (process.env.DATABASE_URL) log(`\nIntegration tests also run on PostgreSQL (DATABASE_URL is set).`);
vitest('vitest', []);

let chromium: string | null = null;
try {
  chromium = ensureChromium(log);
} catch (error) {
  log(`\n✖ ${(error as Error).message}`);
  results.push({ name: 'browser', ok: false, passed: 0, failed: 1 });
}
if (chromium) vitest('browser', ['--config', 'vitest.e2e.config.ts'], { ...process.env, CHROMIUM_PATH: chromium });

/** Fails on any token, key, password or cookie in the logs of the whole run, or when nothing was logged. */
function secretsInLogs(): void {
  log(`\n▶ secrets in logs: ${path.relative(process.cwd(), TEST_LOG_DIR)}/*.log`);
  try {
    const { files, lines, findings } = scanLogDir();
    for (const f of findings.slice(0, 50))
      log(`  ${path.relative(process.cwd(), f.file)}:${f.line}: ${f.name}\n    ${f.excerpt}`);
    if (findings.length > 50) log(`  … and ${findings.length - 50} more`);
    log(`  ${lines} lines in ${files} files, ${findings.length} secrets found`);
    results.push({
      name: 'secrets in logs',
      ok: findings.length === 0,
      passed: findings.length === 0 ? 1 : 0,
      failed: findings.length === 0 ? 0 : 1,
    });
  } catch (error) {
    log(`  ✖ ${(error as Error).message}`);
    results.push({ name: 'secrets in logs', ok: false, passed: 0, failed: 1 });
  }
}
secretsInLogs();

const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
log('');
for (const r of results) log(`  ${r.ok ? '✔' : '✖'} ${r.name}: ${r.passed} passed, ${r.failed} failed`);
log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
