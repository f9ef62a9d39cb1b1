import type { FastifySchemaCompiler } from 'fastify';
import { MESSAGES } from '../../../common/messages.ts';
import { AppError } from '../errors.ts';

/** The path (`a.b.0`) of the first string or key holding U+0000, or null. */
function findNul(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findNul(item, [...path, String(index)]);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return [...path, key.replaceAll('\u0000', '')];
      const found = findNul(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/** Whether any string or key in `value` holds U+0000 (no paths built: this runs on every request). */
function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasNul);
  for (const key of Object.keys(value)) {
    if (key.includes('\u0000') || hasNul((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/**
 * Wraps the route validator: PostgreSQL stores no U+0000 in text or jsonb (it fails the whole statement),
 * so a NUL anywhere in the params, query or body is refused with a 400 before the handler runs.
 */
export function withNulGuard<S>(compiler: FastifySchemaCompiler<S>): FastifySchemaCompiler<S> {
  return (routeSchema) => {
    const validate = compiler(routeSchema);
    return (data: unknown) => {
      const at = hasNul(data) ? findNul(data) : null;
      if (!at) return validate(data) as ReturnType<typeof validate>;
      const field = at.join('.') || '_';
      return {
        error: new AppError(400, 'validation', MESSAGES.generic.nulCharacter, {
          fieldErrors: { [field]: [MESSAGES.generic.nulCharacter] },
        }),
      } as unknown as ReturnType<typeof validate>;
    };
  };
}
