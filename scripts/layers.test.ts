import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceFiles } from './lint/feature-graph.ts';

// The layer rule of `npm run lint` (biome.json, noRestrictedImports on server/platform/**): the platform never
// imports a feature. Checked here on a small tree linted with the project's own biome.json.
const FILES: Record<string, string> = {
  'server/platform/jobs/value.ts': "import { x } from '../../features/assets/service.ts';\n\nexport const y = x;\n",
  'server/platform/type-only.ts': "import type { X } from '../features/assets/service.ts';\n\nexport type Y = X;\n",
  'server/platform/media/re-export.ts': "export { x } from '../../features/assets/service.ts';\n",
  'server/platform/media/allowed.ts': "import { y } from '../jobs/value.ts';\n\nexport const z = y;\n",
  // Tests may drive the whole app, features included.
  'server/platform/jobs/value.test.ts':
    "import { x } from '../../features/assets/service.ts';\n\nexport const y = x;\n",
  // Features (and the wiring) import the platform.
  'server/features/assets/service.ts':
    "import { y } from '../../platform/jobs/value.ts';\n\nexport const x = y;\nexport type X = string;\n",
  'server/jobs.ts': "import { x } from './features/assets/service.ts';\n\nexport const all = [x];\n",
  // The size rule: a function body of 201 lines is refused in code, allowed in a test; 200 lines pass.
  'web/features/long/Panel.tsx': functionOfLines('TooLong', 201),
  'web/features/long/Fits.tsx': functionOfLines('Fits', 200),
  'web/features/long/Panel.test.ts': functionOfLines('LongCase', 201),
  'e2e/long.e2e.test.ts': functionOfLines('LongJourney', 201),
};

/** An exported function whose body spans `lines` lines between its braces. */
function functionOfLines(name: string, lines: number): string {
  const steps = Array.from({ length: lines - 2 }, (_, i) => `  total += ${i};\n`).join('');
  return `export function ${name}(): number {\n  let total = 0;\n${steps}  return total;\n}\n`;
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'genpro-layers-'));
  await copyFile('biome.json', path.join(dir, 'biome.json'));
  for (const [file, text] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('layer rule: server/platform never imports server/features', () => {
  it('flags value, type and re-export imports of a feature in platform code, and nothing else', () => {
    const biome = path.resolve('node_modules/@biomejs/biome/bin/biome');
    const res = spawnSync(process.execPath, [biome, 'lint', '--reporter=json', '--max-diagnostics=100', '.'], {
      cwd: dir,
      encoding: 'utf8',
    });
    const report = JSON.parse(res.stdout) as {
      diagnostics: Array<{ category: string; message: string; location: { path: string } }>;
    };
    const restricted = report.diagnostics.filter((d) => d.category === 'lint/style/noRestrictedImports');
    expect(restricted.map((d) => d.location.path).sort()).toEqual([
      'server/platform/jobs/value.ts',
      'server/platform/media/re-export.ts',
      'server/platform/type-only.ts',
    ]);
    expect(restricted[0]?.message).toContain('server/platform never imports server/features');
    expect(res.status).not.toBe(0);
  });
});

describe('size rule: no function over 200 lines outside tests', () => {
  it('flags a 201-line function in code, not one of 200 lines, nor long tests and journeys', () => {
    const biome = path.resolve('node_modules/@biomejs/biome/bin/biome');
    const res = spawnSync(process.execPath, [biome, 'lint', '--reporter=json', '--max-diagnostics=100', '.'], {
      cwd: dir,
      encoding: 'utf8',
    });
    const report = JSON.parse(res.stdout) as { diagnostics: Array<{ category: string; location: { path: string } }> };
    const long = report.diagnostics.filter((d) => d.category === 'lint/complexity/noExcessiveLinesPerFunction');
    expect(long.map((d) => d.location.path)).toEqual(['web/features/long/Panel.tsx']);
  });
});

describe('size rule: no source file over 600 lines outside tests', () => {
  it('finds none in web, server, common, scripts and bench', () => {
    const long = ['web', 'server', 'common', 'scripts', 'bench']
      .flatMap((dir) => sourceFiles(dir))
      .filter((file) => !/\.test\.tsx?$/.test(file))
      .map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > 600);
    expect(long).toEqual([]);
  });
});
