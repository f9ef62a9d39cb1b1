import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { ProbeReply } from '../../../common/api/health.ts';
import type { Metrics } from './index.ts';

export interface MetricsServerOptions {
  host: string;
  port: number;
  metrics: Metrics;
  /** GET /livez: the process serves (restart it when this fails). */
  live: () => ProbeReply | Promise<ProbeReply>;
  /** GET /readyz: the process can do its core work (the health feature's readiness, wired by main.ts/worker.ts). */
  ready: () => Promise<ProbeReply>;
  log: FastifyBaseLogger;
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

function json(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function probe(res: ServerResponse, reply: ProbeReply): void {
  json(res, reply.status === 'ok' ? 200 : 503, reply);
}

/**
 * METRICS_PORT: a small HTTP listener beside the studio's own (API processes) or alone (`npm run worker`, which
 * has no other HTTP) answering GET /metrics without a token, /livez and /readyz. It is meant for a private network
 * (the Prometheus scraper, the orchestrator's probes): do not expose it publicly.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { error: 'method not allowed' });
    const answer = async () => {
      if (path === '/metrics') {
        const { contentType, body } = await options.metrics.render();
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        res.end(body);
      } else if (path === '/livez') probe(res, await options.live());
      else if (path === '/readyz') probe(res, await options.ready());
      else json(res, 404, { error: 'not found' });
    };
    answer().catch((error: unknown) => {
      options.log.warn({ err: error, path }, 'metrics listener: request failed');
      if (!res.headersSent) json(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  });
  // Scrapes and probes are short; idle keep-alive sockets must not hold the process at shutdown.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  options.log.info({ host: options.host, port }, 'metrics listener ready (/metrics, /livez, /readyz)');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
