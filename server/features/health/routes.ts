import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type HealthReply, healthReply } from '../../../common/api/health.ts';
import type { AppContext } from '../../context.ts';
import { healthEngines } from '../engines/service.ts';

const CHECK_TIMEOUT_MS = 3_000;

async function check(probe: () => Promise<boolean>): Promise<'ok' | 'error'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    return (await Promise.race([probe(), timeout])) ? 'ok' : 'error';
  } catch {
    return 'error';
  } finally {
    clearTimeout(timer);
  }
}

/** Database, job queue and storage, each answering within 3 s. */
async function healthOf(ctx: AppContext): Promise<HealthReply> {
  const [database, jobs, storage] = await Promise.all([
    check(async () => {
      await ctx.database.executeSql('SELECT 1');
      return true;
    }),
    check(() => ctx.jobs.health()),
    check(() => ctx.storage.ping()),
  ]);
  const status = database === 'ok' && jobs === 'ok' && storage === 'ok' ? 'ok' : 'degraded';
  return { status, database, jobs, storage, engines: healthEngines(ctx) };
}

/** GET /healthz for load balancers and operators (no session needed; reveals no data). */
export function healthRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/healthz',
      {
        schema: {
          tags: ['health'],
          summary: 'Health of the database, job queue and media storage; every model and the engine serving it',
          response: { 200: healthReply, 503: healthReply },
        },
      },
      async (_request, reply) => {
        const health = await healthOf(ctx);
        return reply
          .code(health.status === 'ok' ? 200 : 503)
          .header('cache-control', 'no-store')
          .send(health);
      },
    );
  };
}
