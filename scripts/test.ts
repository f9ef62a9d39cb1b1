import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { scanLogDir, TEST_LOG_DIR } from '../server/test/security/log-secrets.ts';
import { ensureChromium } from './chromium.ts';
import { ensureHaproxy } from './haproxy.ts';

// `npm test`: type-check, lint, the Vitest suites (PGlite, and PostgreSQL when DATABASE_URL is set), the cluster
// test (PostgreSQL only), then the browser journeys in real Chromium, one step after another. Ends with each step's
// count and wall time, and one "N passed, N failed" line with the whole run's wall time.

const began = performance.now();
const log = (line: string) => process.stdout.write(`${line}\n`);
/** A wall time as people read it: "48 s", "12 min 3 s". */
function wall(seconds: number): string {
  const s = Math.round(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
const since = (start: number) => (performance.now() - start) / 1000;
const tmp = path.resolve('.tmp');
mkdirSync(tmp, { recursive: true });
// The test apps and the browser-test studio log here; the last step checks these logs for secrets.
rmSync(TEST_LOG_DIR, { recursive: true, force: true });

interface StepResult {
  name: string;
  ok: boolean;
  passed: number;
  failed: number;
  /** Why a step did not run (it then counts neither way, and the summary says so). */
  notRun?: string;
  /** The step's wall time in seconds, when it ran. */
  seconds?: number;
  /** What failed, named in the summary so the end of the output (all a CI log may keep) says what to look at. */
  failures?: string[];
}
const results: StepResult[] = [];

function run(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): { ok: boolean; seconds: number } {
  log(`\n▶ ${name}: ${command} ${args.join(' ')}`);
  const start = performance.now();
  const res = spawnSync(command, args, { stdio: 'inherit', env });
  return { ok: res.status === 0, seconds: since(start) };
}

function vitest(name: string, configArgs: string[], env: NodeJS.ProcessEnv = process.env): void {
  const out = path.join(tmp, `${name}.json`);
  rmSync(out, { force: true });
  const { ok, seconds } = run(
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
  let failures: string[] = [];
  try {
    const report = JSON.parse(readFileSync(out, 'utf8')) as VitestReport;
    passed = report.numPassedTests;
    failed = report.numFailedTests;
    failures = failuresOf(report);
  } catch {
    failed = Math.max(failed, ok ? 0 : 1);
  }
  results.push({ name, ok, passed, failed: ok ? failed : Math.max(failed, 1), seconds, failures });
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults?: Array<{
    name: string;
    status: string;
    message?: string;
    assertionResults?: Array<{ fullName?: string; title: string; status: string; failureMessages?: string[] }>;
  }>;
}

/** Each failed test (or a file that failed outside its tests) with the first lines of why. */
function failuresOf(report: VitestReport): string[] {
  const firstLines = (text: string | undefined) =>
    (text ?? '')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('at '))
      .slice(0, 3)
      .map((line) => line.slice(0, 300))
      .join(' ⏎ ');
  const out: string[] = [];
  for (const file of report.testResults ?? []) {
    const where = path.relative(process.cwd(), file.name);
    const tests = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const test of tests)
      out.push(`${where} › ${test.fullName ?? test.title}\n      ${firstLines(test.failureMessages?.[0])}`);
    if (tests.length === 0 && file.status === 'failed') out.push(`${where}\n      ${firstLines(file.message)}`);
  }
  return out;
}

/** A step that passes or fails as a whole (type-check, lint). */
function check(name: string, command: string, args: string[]): void {
  const { ok, seconds } = run(name, command, args);
  results.push({ name, ok, passed: ok ? 1 : 0, failed: ok ? 0 : 1, seconds });
}

check('typecheck', process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--noEmit']);
check('lint', 'npm', ['run', '-s', 'lint']);

if (process.env.DATABASE_URL) log(`\nIntegration tests also run on PostgreSQL (DATABASE_URL is set).`);
vitest('vitest', []);

let chromium: string | null = null;
try {
  chromium = ensureChromium(log);
} catch (error) {
  log(`\n✖ ${(error as Error).message}`);
  results.push({ name: 'browser', ok: false, passed: 0, failed: 1 });
}

// Two API processes and two workers behind HAProxy (server/test/cluster): they share one database, which the
// embedded PGlite (one process) cannot be, so the step needs PostgreSQL.
if (process.env.DATABASE_URL) {
  let haproxy: string | null = null;
  try {
    haproxy = ensureHaproxy(log);
  } catch (error) {
    log(`\n✖ ${(error as Error).message}`);
    results.push({ name: 'cluster', ok: false, passed: 0, failed: 1 });
  }
  // One of its steps drives a page in Chromium through the balancer while a process drains.
  if (haproxy && chromium)
    vitest('cluster', ['--config', 'vitest.cluster.config.ts'], {
      ...process.env,
      HAPROXY_PATH: haproxy,
      CHROMIUM_PATH: chromium,
    });
  else if (haproxy) {
    log('\n✖ cluster: needs Chromium for its browser step (see the message above)');
    results.push({ name: 'cluster', ok: false, passed: 0, failed: 1 });
  }
} else {
  const why = 'it needs PostgreSQL: set DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/postgres';
  log(`\n▶ cluster: NOT RUN (${why})`);
  results.push({ name: 'cluster', ok: true, passed: 0, failed: 0, notRun: why });
}

if (chromium) vitest('browser', ['--config', 'vitest.e2e.config.ts'], { ...process.env, CHROMIUM_PATH: chromium });

/** Fails on any token, key, password or cookie in the logs of the whole run, or when nothing was logged. */
function secretsInLogs(): void {
  log(`\n▶ secrets in logs: ${path.relative(process.cwd(), TEST_LOG_DIR)}/*.log`);
  const start = performance.now();
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
      seconds: since(start),
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
for (const r of results) {
  const took = r.seconds === undefined ? '' : ` (${wall(r.seconds)})`;
  if (r.notRun) log(`  – ${r.name}: not run (${r.notRun})`);
  else log(`  ${r.ok ? '✔' : '✖'} ${r.name}: ${r.passed} passed, ${r.failed} failed${took}`);
  for (const failure of (r.failures ?? []).slice(0, 20)) log(`      ✖ ${failure}`);
}
log(`\ntests: ${passed} passed, ${failed} failed (${wall(since(began))} in all)`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
