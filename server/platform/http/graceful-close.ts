import type { Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * The requests a server is answering (event streams included), and, once it drains, answers that close their
 * connection: a proxy then sends the client's next request on a new connection, to a process that is not stopping.
 */
export class InFlightRequests {
  private readonly open = new Set<ServerResponse>();
  private draining = false;

  constructor(private readonly server: Server) {
    server.on('request', (_request, response: ServerResponse) => {
      this.open.add(response);
      if (this.draining) response.shouldKeepAlive = false;
      response.once('close', () => {
        this.open.delete(response);
        // A connection kept alive after its last answer would hold the server's close until its keep-alive timeout.
        if (this.draining) setImmediate(() => this.server.closeIdleConnections());
      });
    });
  }

  get count(): number {
    return this.open.size;
  }

  /** Every answer not yet started closes its connection when it is sent. */
  drain(): void {
    this.draining = true;
    for (const response of this.open) if (!response.headersSent) response.shouldKeepAlive = false;
  }
}

/**
 * Closes the app's server: no new connection is accepted, idle keep-alive connections are closed, a request that
 * still arrives on a busy one is answered 503 with `Connection: close` (Fastify's return503OnClosing), and the
 * requests in flight get up to `graceMs` to finish. Then the connections left are cut. Resolves, once the server and
 * the app's close hooks are done, with the number of requests that were cut.
 */
export async function closeServer(app: FastifyInstance, requests: InFlightRequests, graceMs: number): Promise<number> {
  const closed = app.close();
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'grace over'>((resolve) => {
    timer = setTimeout(() => resolve('grace over'), graceMs);
  });
  const first = await Promise.race([closed.then(() => 'closed' as const), graceOver]);
  clearTimeout(timer);
  if (first === 'closed') return 0;
  const cut = requests.count;
  app.server.closeAllConnections();
  await closed;
  return cut;
}
