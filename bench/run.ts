// `npm run bench [-- section…]`: runs the sections (api, tasks, progress, canvas, waits, media, speed, web; all by default) one after
// another, prints each as it finishes, then writes .tmp/bench/results.json and results.md. Budget misses print
// MISS and still exit 0; only errors exit non-zero.
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startStudio } from '../scripts/studio-process.ts';
import { type BenchSection, formatSection, markdownSection } from './report.ts';

const DEMO = { email: 'creator@genpro.local', password: 'genpro-creator' };

/** Runs `bench` against a studio started for it on a fresh data dir (signed in as the demo creator), then stops it. */
async function withStudio<T>(name: string, bench: (target: { baseUrl: string } & typeof DEMO) => Promise<T>) {
  const studio = await startStudio(name);
  try {
    return await bench({ baseUrl: studio.baseUrl, ...DEMO });
  } finally {
    await studio.stop();
  }
}

async function canvasSection(): Promise<BenchSection> {
  const { runCanvasBench } = await import('./canvas.bench.ts');
  return withStudio('bench', runCanvasBench);
}

/** First-load JavaScript per route, then LCP and TBT of the dashboard and the studio in a throttled Chromium. */
async function webSections(): Promise<BenchSection[]> {
  const bundle = await (await import('./web.bench.ts')).runWebBench();
  const { runWebVitalsBench } = await import('./web-vitals.bench.ts');
  return [bundle, await withStudio('bench-vitals', runWebVitalsBench)];
}

async function waitsSection(): Promise<BenchSection> {
  const { runWaitsBench } = await import('./waits.bench.ts');
  return withStudio('bench', runWaitsBench);
}

/** Each section's module is loaded only when it runs. */
const SECTIONS: Record<string, () => Promise<BenchSection | BenchSection[]>> = {
  api: async () => (await import('./api.bench.ts')).runApiBench(),
  tasks: async () => (await import('./tasks.bench.ts')).runTasksBench(),
  progress: async () => (await import('./progress.bench.ts')).runProgressBench(),
  canvas: canvasSection,
  waits: waitsSection,
  media: async () => (await import('./media.bench.ts')).runMediaBench(),
  speed: async () => (await import('./speed.bench.ts')).runSpeedBench(),
  web: webSections,
};

function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    date: new Date().toISOString(),
  };
}

async function main(): Promise<void> {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((name) => !(name in SECTIONS));
  if (unknown.length > 0) {
    console.error(`Unknown section(s): ${unknown.join(', ')}. Sections: ${Object.keys(SECTIONS).join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const names = asked.length > 0 ? asked : Object.keys(SECTIONS);
  const info = machine();
  console.log(`Benchmarks: ${names.join(', ')} — ${info.cpu} × ${info.cores}, Node ${info.node}`);
  const sections: BenchSection[] = [];
  const timings: Record<string, number> = {};
  for (const name of names) {
    const started = Date.now();
    const result = await SECTIONS[name]();
    timings[name] = Math.round((Date.now() - started) / 1000);
    for (const section of Array.isArray(result) ? result : [result]) {
      sections.push(section);
      console.log(formatSection(section));
    }
    console.log(`  (${timings[name]} s)`);
  }
  const dir = path.join('.tmp', 'bench');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'results.json'), `${JSON.stringify({ machine: info, timings, sections }, null, 2)}\n`);
  const md = [
    '## Benchmark results',
    '',
    `Machine: ${info.cpu}, ${info.cores} cores, ${info.memoryGb} GB RAM, ${info.platform}; Node ${info.node}; ${info.date}.`,
    '',
    ...sections.map(markdownSection),
  ].join('\n');
  await writeFile(path.join(dir, 'results.md'), md);
  const misses = sections.flatMap((s) => s.rows.filter((r) => r.pass === false).map((r) => `${s.title}: ${r.name}`));
  console.log(`\nResults written to ${dir}/results.json and results.md.`);
  if (misses.length > 0) console.log(`Budget misses (MISS):\n${misses.map((m) => `  - ${m}`).join('\n')}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
