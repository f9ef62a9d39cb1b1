/** The one error type the studio throws on purpose. The Fastify error handler turns it into a reply. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, details?: unknown) => new AppError(400, 'bad_request', message, details);
export const unauthorized = (message: string) => new AppError(401, 'unauthorized', message);
export const paymentRequired = (message: string, details?: unknown) =>
  new AppError(402, 'insufficient_credits', message, details);
export const forbidden = (message: string, code = 'forbidden') => new AppError(403, code, message);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = (message: string) => new AppError(409, 'conflict', message);
export const tooLarge = (message: string) => new AppError(413, 'too_large', message);
export const tooManyRequests = (message: string, retryAfterSeconds?: number) =>
  new AppError(429, 'rate_limited', message, retryAfterSeconds === undefined ? undefined : { retryAfterSeconds });

/**
 * A database failure that means the storage itself is unavailable, not a bad request: no connection (SQLSTATE
 * class 08), the server shutting down (57P), out of resources (53), no such database (3D000) or table (42P01,
 * e.g. migrations not run). Looks through wrapped causes (drizzle wraps the driver's error).
 */
export function isStorageUnavailable(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^(08|53|57P|3D000$|42P01$)/.test(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
