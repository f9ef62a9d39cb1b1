import { z } from 'zod';

/** `{ success: true, data }` — every successful reply unless the spec names other fields. */
export const ok = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

export const errorReply = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.string().optional(),
  details: z.unknown().optional(),
  /** The catalogue key of `error` and its values (common/message-keys.ts): the web translates by these. */
  messageKey: z.string().optional(),
  messageParams: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});

/** `errorReply` under each status code given, for a route's `response` map. */
export function errorReplies<const Code extends number>(...codes: Code[]): Record<Code, typeof errorReply> {
  return Object.fromEntries(codes.map((code) => [code, errorReply])) as Record<Code, typeof errorReply>;
}

export const messageReply = z.object({ success: z.literal(true), message: z.string() });
