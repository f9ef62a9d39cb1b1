import { existsSync } from 'node:fs';
import { ensureDebianProgram } from './debian-package.ts';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
  (p): p is string => Boolean(p),
);

/** Flags for headless Chromium here: no sandbox as root, and no background traffic on a closed network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function findChromium(): string | null {
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/** Finds Debian's Chromium for the browser tests, installing it with apt-get when we are root. */
export function ensureChromium(log: (line: string) => void): string {
  return ensureDebianProgram({
    name: 'Chromium',
    debianPackage: 'chromium',
    find: findChromium,
    log,
    instructions:
      'The browser tests need Chromium and it was not found.\n' +
      '  On Debian/Ubuntu: sudo apt-get install -y chromium\n' +
      '  Or point CHROMIUM_PATH at a Chromium/Chrome binary.',
  });
}
