// The shape every benchmark section returns, and the table `npm run bench` prints from them.

export interface BenchRow {
  /** What was measured, e.g. "GET /api/ai/assets?limit=35 (PGlite) req/s". */
  name: string;
  /** Our figure, formatted with its unit. */
  ours: string;
  /** The baseline run beside ours (bare Fastify route, direct ffmpeg/sharp call…), or '' when none. */
  baseline: string;
  /** ours ÷ baseline as the budget reads it (throughput share, time ratio…), when there is one. */
  ratio?: number;
  /** The ARCHITECTURE.md section 8 budget, e.g. "≥ 0.40×", "< 50 ms", or '' when none applies. */
  budget?: string;
  /** Whether the figure meets the budget; undefined when there is no budget. */
  pass?: boolean;
}

export interface BenchSection {
  title: string;
  /** How it was measured, one line each (printed under the title and copied to docs/performance.md). */
  method: string[];
  rows: BenchRow[];
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/** A section as an aligned plain-text table. */
export function formatSection(section: BenchSection): string {
  const header = ['measure', 'ours', 'baseline', 'ratio', 'budget', ''];
  const lines = section.rows.map((r) => [
    r.name,
    r.ours,
    r.baseline,
    r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}×`,
    r.budget ?? '',
    r.pass === undefined ? '' : r.pass ? 'ok' : 'MISS',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const row = (cells: string[]) =>
    cells
      .map((c, i) => pad(c, widths[i]))
      .join('  ')
      .trimEnd();
  return [
    `\n${section.title}`,
    ...section.method.map((m) => `  · ${m}`),
    '',
    row(header),
    row(widths.map((w) => '-'.repeat(w))),
    ...lines.map(row),
  ].join('\n');
}

/** A section as a Markdown table (for docs/performance.md). */
export function markdownSection(section: BenchSection): string {
  const cell = (s: string) => s.replaceAll('|', '\\|');
  return [
    `### ${section.title}`,
    '',
    ...section.method.map((m) => `- ${m}`),
    '',
    '| measure | ours | baseline | ratio | budget | result |',
    '| --- | --- | --- | --- | --- | --- |',
    ...section.rows.map(
      (r) =>
        `| ${cell(r.name)} | ${cell(r.ours)} | ${cell(r.baseline)} | ${r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}×`} | ${cell(r.budget ?? '')} | ${r.pass === undefined ? '' : r.pass ? 'ok' : 'miss'} |`,
    ),
    '',
  ].join('\n');
}
