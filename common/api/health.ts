import { z } from 'zod';

const check = z.enum(['ok', 'error']);

/** GET /healthz: 200 when every part answers, 503 otherwise. */
export const healthReply = z.object({
  status: z.enum(['ok', 'degraded']),
  database: check,
  jobs: check,
  storage: check,
});
export type HealthReply = z.infer<typeof healthReply>;
