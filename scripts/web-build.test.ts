import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildWeb } from './web-build.ts';

// `npm start` builds the web app in the process that then starts the studio. Vite sets NODE_ENV to
// 'production' when it is unset, which turned a fresh checkout's `npm start` into production mode
// (start-up refused: SMTP_URL required). The build must leave NODE_ENV as it found it.
describe('buildWeb', () => {
  const saved = process.env.NODE_ENV;
  let dir = '';
  afterEach(async () => {
    if (saved === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function tinyApp(): Promise<string> {
    dir = await mkdtemp(path.join(os.tmpdir(), 'genpro-web-build-'));
    await writeFile(
      path.join(dir, 'index.html'),
      '<!doctype html><title>t</title><script type="module" src="./main.js"></script>',
    );
    await writeFile(path.join(dir, 'main.js'), 'document.title = "built";');
    const config = path.join(dir, 'vite.config.mjs');
    await writeFile(config, `export default { root: ${JSON.stringify(dir)}, build: { outDir: 'dist' } };`);
    return config;
  }

  it('leaves an unset NODE_ENV unset after building (npm start stays in demo mode)', async () => {
    delete process.env.NODE_ENV;
    await buildWeb(await tinyApp());
    expect(await readFile(path.join(dir, 'dist', 'index.html'), 'utf8')).toContain('<title>t</title>');
    expect(process.env.NODE_ENV).toBeUndefined();
  });

  it('keeps an explicit NODE_ENV', async () => {
    process.env.NODE_ENV = 'test';
    await buildWeb(await tinyApp());
    expect(process.env.NODE_ENV).toBe('test');
  });
});
