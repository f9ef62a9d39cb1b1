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
