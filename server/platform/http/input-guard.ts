import type { FastifySchemaCompiler } from 'fastify';
import { MESSAGES } from '../../../common/messages.ts';
import { AppError } from '../errors.ts';

/** How deep objects and arrays may nest in a request; the studio's deepest real body is a handful of levels. */
export const MAX_INPUT_DEPTH = 64;

type Problem = 'nul' | 'surrogate' | 'depth';

const MESSAGE: Record<Problem, string> = {
  nul: MESSAGES.generic.nulCharacter,
  surrogate: MESSAGES.generic.invalidUnicode,
  depth: MESSAGES.generic.tooDeep(MAX_INPUT_DEPTH),
};

// ES2024's String.prototype.isWellFormed (Node 20 has it; the type library here is ES2023).
const isWellFormed = (text: string) => (text as string & { isWellFormed(): boolean }).isWellFormed();

function problemIn(text: string): Problem | null {
  if (text.includes('\u0000')) return 'nul';
  return isWellFormed(text) ? null : 'surrogate';
}

interface Found {
  problem: Problem;
  path: string[];
}

/** One container still to scan, with the keys that lead to it (a linked list: no copies per level). */
interface Pending {
  value: object;
  depth: number;
  at: Step | null;
}
interface Step {
  key: string;
  parent: Step | null;
}

function pathOf(step: Step | null, last?: string): string[] {
  const path: string[] = last === undefined ? [] : [last];
  for (let s = step; s; s = s.parent) path.push(s.key);
  return path.reverse();
}

/**
 * The first string or key that PostgreSQL cannot store (U+0000 fails the statement, a lone UTF-16
 * surrogate fails every jsonb insert) or the first container nested deeper than MAX_INPUT_DEPTH, or null.
 * Iterative, so a body nested thousands deep cannot overflow the stack.
 */
export function findBadInput(input: unknown): Found | null {
  if (typeof input === 'string') {
    const problem = problemIn(input);
    return problem ? { problem, path: [] } : null;
  }
  if (input === null || typeof input !== 'object') return null;
  const stack: Pending[] = [{ value: input, depth: 1, at: null }];
  while (stack.length > 0) {
    const { value, depth, at } = stack.pop() as Pending;
    if (depth > MAX_INPUT_DEPTH) return { problem: 'depth', path: pathOf(at) };
    const entries: [string, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [String(index), item])
      : Object.entries(value);
    for (const [key, item] of entries) {
      const keyProblem = problemIn(key);
      if (keyProblem) return { problem: keyProblem, path: pathOf(at, key.replaceAll('\u0000', '')) };
      if (typeof item === 'string') {
        const problem = problemIn(item);
        if (problem) return { problem, path: pathOf(at, key) };
      } else if (item !== null && typeof item === 'object') {
        stack.push({ value: item, depth: depth + 1, at: { key, parent: at } });
      }
    }
  }
  return null;
}

/**
 * Wraps the route validator: params, query and body holding a NUL, a lone surrogate, or nesting past
 * MAX_INPUT_DEPTH are refused with a 400 naming the field, before the handler (or the schema's own
 * recursion) runs.
 */
export function withInputGuard<S>(compiler: FastifySchemaCompiler<S>): FastifySchemaCompiler<S> {
  return (routeSchema) => {
    const validate = compiler(routeSchema);
    return (data: unknown) => {
      const found = findBadInput(data);
      if (!found) return validate(data) as ReturnType<typeof validate>;
      const field = found.path.join('.') || '_';
      const message = MESSAGE[found.problem];
      return {
        error: new AppError(400, 'validation', message, { fieldErrors: { [field]: [message] } }),
      } as unknown as ReturnType<typeof validate>;
    };
  };
}
