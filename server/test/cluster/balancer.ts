import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

// HAProxy in front of the API processes, as docs/deploy.md ("What the cluster test proves") shows an operator:
// round-robin, /readyz polled every second, retries and redispatch for requests a dead process never answered, and
// time-outs that let an event stream (GET /api/tasks/events, a ping every 15 s) stay open.

export interface Backend {
  name: string;
  port: number;
}

/** The configuration file, for 127.0.0.1:`port` in front of `backends`, with the stats page on `statsPort`. */
function haproxyConfig(options: { port: number; statsPort: number; backends: Backend[] }): string {
  const servers = options.backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check`).join('\n');
  return `global
  log stdout format raw local0 info
  maxconn 1024

defaults
  mode http
  log global
  # Path without the query string: signed media links (sig=…) stay out of the log.
  log-format "%ci [%tr] %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B %tsc %rc %HM %HP"
  option forwardfor
  timeout connect 2s
  timeout client 60s
  # An event stream sends a ping every 15 s: a minute of silence means it is gone.
  timeout server 60s
  timeout tunnel 1h
  timeout http-request 15s
  timeout http-keep-alive 10s
  timeout queue 30s
  timeout check 2s
  # A request a process never answered goes to the other one: connection refused or reset (the process died),
  # and, for GET and HEAD only (see disable-l7-retry), an empty response or no response in time.
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response response-timeout
  # A fresh connection to a process for each request: one that died is then found by a refused connection, which
  # is retried elsewhere, rather than by a request lost on a kept-alive connection to it.
  option http-server-close

frontend studio
  bind 127.0.0.1:${options.port}
  default_backend api

backend api
  balance roundrobin
  option httpchk
  http-check send meth GET uri /readyz ver HTTP/1.1 hdr Host localhost
  http-check expect status 200
  # A POST that reached a process may have done its work: only a connection failure is retried for it.
  http-request disable-l7-retry unless METH_GET
  default-server inter 1s fastinter 500ms downinter 1s rise 2 fall 2
${servers}

listen stats
  bind 127.0.0.1:${options.statsPort}
  no log
  stats enable
  stats uri /stats
`;
}

/** One server's row of the stats page (the columns named in HAProxy's management guide, 9.1). */
interface ServerStat {
  name: string;
  /** UP, DOWN, 'UP 1/2' (going down), 'DOWN 1/2' (coming up), MAINT… */
  status: string;
  checkStatus: string;
  checkCode: string;
  /** Times the balancer chose this server for a request (lbtot). */
  selected: number;
  /** Requests it answered, by class. */
  responses2xx: number;
  responses5xx: number;
}

export interface Balancer {
  url: string;
  statsUrl: string;
  /** The servers of backend `api`, read from the stats page. */
  servers(): Promise<ServerStat[]>;
  /** Waits until every named server has the status (UP or DOWN), as the health checks decide. */
  waitFor(status: 'UP' | 'DOWN', names: string[], timeoutMs?: number): Promise<ServerStat[]>;
  stop(): Promise<void>;
}

/** Starts HAProxy (`binary`) with haproxyConfig in `dir`, logging to `logFile`. */
export async function startBalancer(options: {
  binary: string;
  dir: string;
  port: number;
  statsPort: number;
  backends: Backend[];
  logFile: string;
}): Promise<Balancer> {
  const config = path.join(options.dir, 'haproxy.cfg');
  await writeFile(config, haproxyConfig(options));
  const check = spawnSync(options.binary, ['-c', '-q', '-f', config], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`HAProxy refused its configuration:\n${check.stdout}${check.stderr}`);

  const log = createWriteStream(options.logFile, { flags: 'a' });
  let output = '';
  // -db: stay in the foreground (a child of the test), logging to stdout.
  const child: ChildProcess = spawn(options.binary, ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (chunk: Buffer) => {
    output += chunk;
    log.write(chunk);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.once('exit', () => log.end());

  const url = `http://127.0.0.1:${options.port}`;
  const statsUrl = `http://127.0.0.1:${options.statsPort}/stats;csv`;

  const servers = async (): Promise<ServerStat[]> => {
    const csv = await (await fetch(statsUrl)).text();
    const [header, ...rows] = csv.trim().split('\n');
    const columns = (header ?? '').replace(/^# /, '').split(',');
    const at = (cells: string[], name: string) => cells[columns.indexOf(name)] ?? '';
    return rows
      .map((row) => row.split(','))
      .filter((cells) => at(cells, 'pxname') === 'api' && !['FRONTEND', 'BACKEND'].includes(at(cells, 'svname')))
      .map((cells) => ({
        name: at(cells, 'svname'),
        status: at(cells, 'status'),
        // "* L7OK" while a check is running: the last result is the same.
        checkStatus: at(cells, 'check_status').replace(/^\* /, ''),
        checkCode: at(cells, 'check_code'),
        selected: Number(at(cells, 'lbtot')),
        responses2xx: Number(at(cells, 'hrsp_2xx')),
        responses5xx: Number(at(cells, 'hrsp_5xx')),
      }));
  };

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`HAProxy exited with ${child.exitCode}:\n${output}`);
    try {
      await servers();
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`HAProxy did not answer on its stats port:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  return {
    url,
    statsUrl,
    servers,
    waitFor: async (status, names, timeoutMs = 60_000) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const stats = await servers();
        const wanted = stats.filter((s) => names.includes(s.name));
        if (wanted.length === names.length && wanted.every((s) => s.status === status)) return stats;
        if (Date.now() > until)
          throw new Error(`the balancer did not see ${names.join(', ')} ${status}: ${JSON.stringify(stats)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
