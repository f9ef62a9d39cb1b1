import { z } from 'zod';

/** `{ success: true, data }` — every successful reply unless the spec names other fields. */
export const ok = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

export const errorReply = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.string().optional(),
  details: z.unknown().optional(),
});

export const messageReply = z.object({ success: z.literal(true), message: z.string() });
