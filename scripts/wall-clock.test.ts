import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type ESTree, parseSync, Visitor } from 'vite';
import { describe, expect, it } from 'vitest';

// House rule: no wall-clock assertions in tests; speed goals are budgets of `npm run bench` (docs/performance.md).
// This finds a test that bounds an elapsed time from above: `expect(elapsed).toBeLessThan(…)` (or …OrEqual),
// `expect(bound).toBeGreaterThan(elapsed)`, or `elapsed < bound` inside expect()/assert(), where elapsed is a
// difference of two clock reads (performance.now(), Date.now(), process.hrtime…, new Date().getTime()), directly or
// through variables holding them. Time-outs (`if (Date.now() - started > limit) throw`), lower bounds (a delay was
// waited out), fake timers asserted exactly, and a timestamp compared with now minus a constant are not flagged.

type Node = ESTree.Node;

const CLOCKS = new Set(['performance.now', 'Date.now', 'process.hrtime', 'process.hrtime.bigint']);
const UPPER = new Set(['toBeLessThan', 'toBeLessThanOrEqual']);
const LOWER = new Set(['toBeGreaterThan', 'toBeGreaterThanOrEqual']);

/** Drops parentheses and TypeScript-only wrappers (`x as number`, `x!`). */
function bare(node: Node | null | undefined): Node | null {
  let n = node ?? null;
  while (
    n &&
    (n.type === 'ParenthesizedExpression' ||
      n.type === 'TSAsExpression' ||
      n.type === 'TSNonNullExpression' ||
      n.type === 'TSSatisfiesExpression')
  )
    n = n.expression;
  return n;
}

/** `a.b.c` for a chain of plain member accesses on an identifier, else null. */
function dotted(node: Node | null): string | null {
  const n = bare(node);
  if (n?.type === 'Identifier') return n.name;
  if (n?.type === 'MemberExpression' && !n.computed && n.property.type === 'Identifier') {
    const head = dotted(n.object);
    return head === null ? null : `${head}.${n.property.name}`;
  }
  return null;
}

function isClockRead(node: Node | null): boolean {
  const n = bare(node);
  if (n?.type !== 'CallExpression') return false;
  const name = dotted(n.callee);
  if (name !== null && CLOCKS.has(name)) return true;
  // new Date().getTime() / .valueOf()
  const callee = bare(n.callee);
  if (callee?.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') return false;
  const made = bare(callee.object);
  return (
    ['getTime', 'valueOf'].includes(callee.property.name) &&
    made?.type === 'NewExpression' &&
    dotted(made.callee) === 'Date' &&
    made.arguments.length === 0
  );
}

const isExpect = (callee: Node | null) => ['expect', 'expect.soft'].includes(dotted(callee) ?? '');

/** Finds the elapsed-time upper bounds in one test file's source: one line of text per finding. */
function wallClockBounds(file: string, source: string): string[] {
  const { program, errors } = parseSync(file, source);
  if (errors.length > 0) throw new Error(`${file}: ${errors[0]?.message}`);
  // Names that hold a clock read (and arrays clock reads are pushed to), then names that hold an elapsed time.
  const clockNames = new Set<string>();
  const elapsedNames = new Set<string>();
  const bindings: Array<{ name: string; value: Node | null }> = [];
  const bounds: Array<{ kind: 'actual' | 'expected' | 'comparison'; value: Node; at: number }> = [];
  const lineOf = (offset: number) => source.slice(0, offset).split('\n').length;

  new Visitor({
    VariableDeclarator(node) {
      if (node.id.type === 'Identifier') bindings.push({ name: node.id.name, value: node.init });
    },
    AssignmentExpression(node) {
      if (node.left.type === 'Identifier') bindings.push({ name: node.left.name, value: node.right });
    },
    CallExpression(node) {
      const callee = bare(node.callee);
      // times.push(Date.now())
      if (
        callee?.type === 'MemberExpression' &&
        dotted(callee)?.endsWith('.push') &&
        node.arguments.some(isClockRead)
      ) {
        const array = dotted(callee.object);
        if (array) clockNames.add(array);
      }
      const matcher = callee?.type === 'MemberExpression' && !callee.computed ? callee.property : null;
      const subject = callee?.type === 'MemberExpression' ? bare(callee.object) : null;
      if (matcher?.type === 'Identifier' && subject?.type === 'CallExpression' && isExpect(subject.callee)) {
        const actual = subject.arguments[0];
        if (UPPER.has(matcher.name) && actual) bounds.push({ kind: 'actual', value: actual as Node, at: node.start });
        const expected = node.arguments[0];
        if (LOWER.has(matcher.name) && expected)
          bounds.push({ kind: 'expected', value: expected as Node, at: node.start });
      }
      const name = dotted(callee) ?? '';
      if ((isExpect(callee) || name === 'assert' || name.startsWith('assert.')) && node.arguments[0])
        bounds.push({ kind: 'comparison', value: node.arguments[0] as Node, at: node.start });
    },
  }).visit(program);

  const isClockValue = (node: Node | null): boolean => {
    const n = bare(node);
    if (isClockRead(n)) return true;
    if (n?.type === 'Identifier') return clockNames.has(n.name);
    if (n?.type === 'MemberExpression' && n.computed) return clockNames.has(dotted(n.object) ?? '');
    return false;
  };
  const isElapsed = (node: Node | null): boolean => {
    const n = bare(node);
    if (n?.type === 'BinaryExpression' && n.operator === '-') return isClockValue(n.left) && isClockValue(n.right);
    if (n?.type === 'Identifier') return elapsedNames.has(n.name);
    // Math.max(longest, now - last)
    if (
      n?.type === 'CallExpression' &&
      ['Math.max', 'Math.round', 'Math.floor', 'Math.ceil'].includes(dotted(n.callee) ?? '')
    )
      return n.arguments.some((a) => isElapsed(a as Node));
    return false;
  };
  // Until nothing changes: a name may hold a clock read through another name.
  for (let grew = true; grew; ) {
    grew = false;
    for (const { name, value } of bindings) {
      if (!clockNames.has(name) && isClockValue(value)) {
        clockNames.add(name);
        grew = true;
      }
      if (!elapsedNames.has(name) && isElapsed(value)) {
        elapsedNames.add(name);
        grew = true;
      }
    }
  }

  const found: string[] = [];
  for (const { kind, value, at } of bounds) {
    const v = bare(value);
    const hit =
      kind === 'comparison'
        ? v?.type === 'BinaryExpression' &&
          (((v.operator === '<' || v.operator === '<=') && isElapsed(v.left)) ||
            ((v.operator === '>' || v.operator === '>=') && isElapsed(v.right)))
        : isElapsed(v);
    if (hit) found.push(`${file}:${lineOf(at)}: ${source.slice(value.start, value.end)}`);
  }
  return found;
}

function testFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((f) => /\.test\.tsx?$/.test(f) && !f.split(path.sep).includes('node_modules'))
    .map((f) => path.join(dir, f));
}

describe('no wall-clock bounds in tests', () => {
  const flagged = (source: string) => wallClockBounds('fixture.test.ts', source).length;

  it('flags an elapsed time bounded from above, however it is written', () => {
    for (const source of [
      'const started = performance.now(); await run(); const elapsed = performance.now() - started; expect(elapsed).toBeLessThan(3000);',
      'const started = performance.now(); await run(); expect(performance.now() - started, model).toBeLessThan(12_000);',
      'const started = Date.now(); await run(); expect(Date.now() - started).toBeLessThanOrEqual(900);',
      'const at: number[] = []; at.push(Date.now()); at.push(Date.now()); expect(at[1] - at[0]).toBeLessThan(4000);',
      'let longest = 0; let last = performance.now(); const tick = () => { const now = performance.now(); longest = Math.max(longest, now - last); last = now; }; expect(longest).toBeLessThan(300);',
      'const t0 = new Date().getTime(); expect(2000).toBeGreaterThan(new Date().getTime() - t0);',
      'const start = process.hrtime.bigint(); expect(process.hrtime.bigint() - start < 10n).toBe(true);',
      'const a = Date.now(); const b = a; expect.soft((Date.now() - b) as number).toBeLessThan(5);',
    ])
      expect(flagged(source), source).toBe(1);
  });

  it('leaves time-outs, lower bounds, exact fake-clock times and timestamps alone', () => {
    for (const source of [
      "const started = Date.now(); for (;;) { if (Date.now() - started > 150_000) throw new Error('hung'); }",
      'const at: number[] = []; at.push(Date.now()); expect(at[1] - at[0]).toBeGreaterThanOrEqual(1000);',
      'const start = Date.now(); const times = [Date.now() - start]; expect(times).toEqual([100]);',
      'expect(Date.parse(row.at)).toBeGreaterThan(Date.now() - 60_000);',
      'expect(row.updatedAt.getTime()).toBeLessThan(Date.now() - 3000_000);',
      'const expiresIn = new Date(body.expires_at).getTime() - Date.now(); expect(expiresIn).toBeLessThanOrEqual(86_400_000);',
      'const at = performance.now(); expect(await barrier(at)).toBe(1);',
    ])
      expect(flagged(source), source).toBe(0);
  });

  it('finds none in the test files of server/, web/, common/, e2e/ and scripts/', () => {
    const files = ['server', 'web', 'common', 'e2e', 'scripts'].flatMap(testFiles);
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((file) => wallClockBounds(file, readFileSync(file, 'utf8')))).toEqual([]);
  });
});
