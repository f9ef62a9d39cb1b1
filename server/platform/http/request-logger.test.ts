import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../context.ts';
import { lazyChildLoggerFactory } from './request-logger.ts';

async function appLoggingAt(level: 'warn' | 'info') {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = Fastify({
    loggerInstance: createLogger(level, stream),
    genReqId: () => 'req-1',
    childLoggerFactory: lazyChildLoggerFactory,
    disableRequestLogging: true,
  });
  app.get('/logs', async (request) => {
    request.log.info({ step: 'info' }, 'an info line');
    request.log.warn({ step: 'warn' }, 'a warning');
    request.log.child({ part: 'inner' }).error('an inner error');
    return { ok: true };
  });
  app.get('/quiet', async () => ({ ok: true }));
  await app.ready();
  return { app, lines };
}

describe('request.log made lazily', () => {
  it('logs what the level lets through, with the request id and child bindings', async () => {
    const { app, lines } = await appLoggingAt('warn');
    const res = await app.inject({ method: 'GET', url: '/logs' });
    expect(res.statusCode).toBe(200);
    expect(lines.map((l) => l.msg)).toEqual(['a warning', 'an inner error']);
    expect(lines[0]).toMatchObject({ reqId: 'req-1', step: 'warn', level: 40 });
    expect(lines[1]).toMatchObject({ reqId: 'req-1', part: 'inner', level: 50 });
    await app.close();
  });

  it('lets info through at info level', async () => {
    const { app, lines } = await appLoggingAt('info');
    await app.inject({ method: 'GET', url: '/logs' });
    expect(lines.map((l) => l.msg)).toEqual(['an info line', 'a warning', 'an inner error']);
    expect(lines.every((l) => l.reqId === 'req-1')).toBe(true);
    await app.close();
  });

  it('writes nothing for a request that logs nothing', async () => {
    const { app, lines } = await appLoggingAt('warn');
    expect((await app.inject({ method: 'GET', url: '/quiet' })).statusCode).toBe(200);
    expect(lines).toEqual([]);
    await app.close();
  });
});
