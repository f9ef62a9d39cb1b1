import { execFileSync, spawnSync } from 'node:child_process';

/**
 * A program the tests need from a Debian package: `find()` when it is there, else the package installed with
 * apt-get when we are root (CI), else an Error with `instructions`: the tests that need it are never skipped silently.
 */
export function ensureDebianProgram(options: {
  name: string;
  debianPackage: string;
  find: () => string | null;
  instructions: string;
  log: (line: string) => void;
}): string {
  const found = options.find();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('which', ['apt-get']).status === 0;
  if (isRoot && hasApt) {
    options.log(`${options.name} is missing: installing Debian package ${options.debianPackage} with apt-get…`);
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', options.debianPackage], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    const installed = options.find();
    if (installed) return installed;
  }
  throw new Error(options.instructions);
}
