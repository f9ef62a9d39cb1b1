import { randomBytes } from 'node:crypto';
import http from 'node:http';

// An HTTP client for the cluster test that can speak from a given loopback address (127.0.0.x): each simulated
// user is its own client address, as the balancer (X-Forwarded-For) and the API processes (TRUST_PROXY) see it.

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text(): string;
  // biome-ignore lint/suspicious/noExplicitAny: test replies are read field by field
  json(): any;
}

interface RequestOptions {
  json?: unknown;
  body?: Buffer | string;
  headers?: Record<string, string>;
  /** Give up after this long (the request then rejects); default 120 s. */
  timeoutMs?: number;
}

interface TaskEvent {
  id: string;
  kind: string;
  status: string;
  progress: number;
  result: Record<string, unknown> | null;
}

/** An open GET /api/tasks/events stream: the `task` events it received, in order. */
export interface EventStream {
  events: TaskEvent[];
  /** Resolves with the first event matching `test` (already received or to come); rejects after `timeoutMs`. */
  waitFor(test: (event: TaskEvent) => boolean, timeoutMs: number, what: string): Promise<TaskEvent>;
  close(): void;
}

export class Client {
  private readonly agent: http.Agent;
  readonly url: URL;

  constructor(
    baseUrl: string,
    /** The loopback address requests leave from; any 127.0.0.0/8 address is on the loopback interface. */
    readonly localAddress = '127.0.0.1',
    public token: string | null = null,
  ) {
    this.url = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  }

  /** The same user (token) and address on another base URL (e.g. one API process directly, not the balancer). */
  on(baseUrl: string): Client {
    return new Client(baseUrl, this.localAddress, this.token);
  }

  get baseUrl(): string {
    return this.url.origin;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.token ? { authorization: `Bearer ${this.token}` } : {}), ...extra };
  }

  request(method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
    const headers = this.headers(options.headers);
    let body: Buffer | undefined;
    if (options.json !== undefined) {
      body = Buffer.from(JSON.stringify(options.json));
      headers['content-type'] = 'application/json';
    } else if (options.body !== undefined) {
      body = Buffer.isBuffer(options.body) ? options.body : Buffer.from(options.body);
    }
    if (body) headers['content-length'] = String(body.length);
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: this.url.hostname,
          port: this.url.port,
          method,
          path,
          headers,
          agent: this.agent,
          localAddress: this.localAddress,
          timeout: options.timeoutMs ?? 120_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const buffer = Buffer.concat(chunks);
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: buffer,
              text: () => buffer.toString('utf8'),
              json: () => JSON.parse(buffer.toString('utf8')),
            });
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in time`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  get(path: string, options?: RequestOptions): Promise<Reply> {
    return this.request('GET', path, options);
  }

  post(path: string, json?: unknown, options: RequestOptions = {}): Promise<Reply> {
    return this.request('POST', path, { ...options, json: json ?? {} });
  }

  /** POST /api/upload with one file (multipart `file` and `type`). */
  upload(file: Buffer, filename: string, contentType: string, type = 'image'): Promise<Reply> {
    const boundary = `----cluster${randomBytes(8).toString('hex')}`;
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\n${type}\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
          `Content-Type: ${contentType}\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return this.request('POST', '/api/upload', {
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
  }

  /** Opens GET /api/tasks/events (optionally for some task ids) and collects its `task` events. */
  async taskEvents(ids: string[] = []): Promise<EventStream> {
    const query = ids.length > 0 ? `?${ids.map((id) => `ids=${encodeURIComponent(id)}`).join('&')}` : '';
    const events: TaskEvent[] = [];
    const waiters: Array<() => void> = [];
    let failure: Error | null = null;
    const req = http.request({
      host: this.url.hostname,
      port: this.url.port,
      method: 'GET',
      path: `/api/tasks/events${query}`,
      headers: this.headers({ accept: 'text/event-stream' }),
      localAddress: this.localAddress,
    });
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      req.once('response', resolve);
      req.once('error', reject);
      req.end();
    });
    if (res.statusCode !== 200) throw new Error(`task events on ${this.baseUrl}: ${res.statusCode}`);
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const lines = block.split('\n');
        if (!lines.includes('event: task')) continue;
        const data = lines.find((line) => line.startsWith('data: '));
        if (data) events.push(JSON.parse(data.slice(6)) as TaskEvent);
        for (const wake of waiters.splice(0)) wake();
      }
    });
    const ended = () => {
      failure ??= new Error(`the task event stream on ${this.baseUrl} ended`);
      for (const wake of waiters.splice(0)) wake();
    };
    res.on('end', ended);
    res.on('error', ended);
    return {
      events,
      waitFor: async (test, timeoutMs, what) => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const found = events.find(test);
          if (found) return found;
          if (failure) throw new Error(`${failure.message} before ${what}`);
          const left = deadline - Date.now();
          if (left <= 0) throw new Error(`timed out waiting for ${what} on ${this.baseUrl}`);
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, Math.min(left, 1_000));
            waiters.push(() => {
              clearTimeout(timer);
              resolve();
            });
          });
        }
      },
      close: () => {
        failure ??= new Error('closed');
        req.destroy();
      },
    };
  }

  close(): void {
    this.agent.destroy();
  }
}
