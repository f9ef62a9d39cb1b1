import { sharedUserRateLimit } from '../../platform/http/user-rate-limit.ts';

/**
 * The one per-user upload limit (RATE_LIMIT_UPLOADS_PER_MINUTE) shared by every upload route —
 * multipart, base64, remote URL and avatar. Add it as a route's `onRequest`.
 */
export const uploadRateLimit = sharedUserRateLimit((config) => config.RATE_LIMIT_UPLOADS_PER_MINUTE);
