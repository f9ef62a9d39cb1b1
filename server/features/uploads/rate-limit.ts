import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { sharedAddressRateLimit, sharedUserRateLimit } from '../../platform/http/user-rate-limit.ts';

const perUser = sharedUserRateLimit('uploads', (config) => config.RATE_LIMIT_UPLOADS_PER_MINUTE);
const perAddress = sharedAddressRateLimit(
  'uploads-address',
  (config) => config.RATE_LIMIT_UPLOADS_PER_ADDRESS_PER_MINUTE,
);

/**
 * The upload limits shared by every upload route — multipart, base64, remote URL and avatar:
 * RATE_LIMIT_UPLOADS_PER_MINUTE per user, then RATE_LIMIT_UPLOADS_PER_ADDRESS_PER_MINUTE per client address
 * (however many accounts it signs in with). Add them as a route's `onRequest`.
 */
export function uploadRateLimit(ctx: AppContext, app: FastifyInstance) {
  return [perUser(ctx, app), perAddress(ctx, app)];
}
