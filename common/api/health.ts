import { z } from 'zod';
import { healthEngine } from './engines.ts';

const check = z.enum(['ok', 'error']);

/** GET /healthz: 200 when every part answers, 503 otherwise. */
export const healthReply = z.object({
  status: z.enum(['ok', 'degraded']),
  database: check,
  jobs: check,
  storage: check,
  /**
   * Every model, the engine serving it, whether it can be called and whether that engine answered
   * its last call in this process (issue 19). Informational: it does not change `status`.
   */
  engines: z.array(healthEngine),
});
export type HealthReply = z.infer<typeof healthReply>;
