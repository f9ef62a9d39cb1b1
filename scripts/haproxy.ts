import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureDebianProgram } from './debian-package.ts';

// The cluster test's load balancer: Debian's HAProxy (the package `haproxy`), found like Chromium for the browser
// tests (scripts/chromium.ts).

function candidates(): string[] {
  const onPath = spawnSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' }).stdout?.trim();
  return [process.env.HAPROXY_PATH, '/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy', onPath].filter(
    (p): p is string => Boolean(p),
  );
}

export function findHaproxy(): string | null {
  return candidates().find((p) => existsSync(p)) ?? null;
}

/** Finds HAProxy for the cluster test, installing Debian's package with apt-get when we are root. */
export function ensureHaproxy(log: (line: string) => void): string {
  return ensureDebianProgram({
    name: 'HAProxy',
    debianPackage: 'haproxy',
    find: findHaproxy,
    log,
    instructions:
      'The cluster test needs HAProxy (its load balancer) and it was not found.\n' +
      '  On Debian/Ubuntu: sudo apt-get install -y haproxy\n' +
      '  Or point HAPROXY_PATH at an haproxy binary (2.6 or later).',
  });
}
