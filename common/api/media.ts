import { z } from 'zod';

/**
 * GET /api/images/{key}, /api/videos/{key}, /api/audio/{key}, /api/personas/image/{key},
 * /api/personas/video/{key}: the bytes of a stored object (Range supported). Query:
 * `download=1` for an attachment; `expires` + `sig` for a signed URL that needs no session; `post` + `sig`
 * for the URL of a published post's media, readable without a session while the post is live.
 */
export const mediaQuery = z.object({
  download: z.enum(['1', 'true', '0', 'false']).optional(),
  expires: z.string().max(16).optional(),
  sig: z.string().max(128).optional(),
  post: z.string().max(64).optional(),
});
export type MediaQuery = z.infer<typeof mediaQuery>;

export const mediaParams = z.object({ '*': z.string().max(600) });
