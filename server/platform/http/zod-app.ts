import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The Fastify instance a route plugin receives: its zod schemas type each route's request and reply. */
export type ZodApp = Parameters<FastifyPluginAsyncZod>[0];
