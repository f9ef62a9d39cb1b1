import { access, readdir, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * Who has the embedded database (PGlite's data directory) open. PGlite takes no lock: a second process opening
 * the same directory is not refused and both write to it, which corrupts it. While a PGlite instance is open its
 * directory holds `postmaster.pid` (removed by a clean close, left behind by a killed process), and the process
 * keeps files of the directory open (relation files, the WAL segment), which Linux lists under /proc/<pid>/fd.
 */
export interface EmbeddedUse {
  /** Other processes holding files of the directory open; null where that cannot be known (no /proc). */
  pids: number[] | null;
  /** Whether postmaster.pid is there: open now, or not closed cleanly last time. */
  pidFile: boolean;
}

export async function embeddedDatabaseUse(pgDir: string): Promise<EmbeddedUse> {
  const pidFile = await access(path.join(pgDir, 'postmaster.pid')).then(
    () => true,
    () => false,
  );
  let dir: string;
  try {
    dir = await realpath(pgDir);
  } catch {
    return { pids: [], pidFile };
  }
  return { pids: await processesHolding(dir), pidFile };
}

async function processesHolding(dir: string): Promise<number[] | null> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return null;
  }
  const pids: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let fds: string[];
    try {
      fds = await readdir(`/proc/${entry}/fd`);
    } catch {
      continue; // gone, or another user's process
    }
    for (const fd of fds) {
      const target = await readlink(`/proc/${entry}/fd/${fd}`).catch(() => '');
      if (target === dir || target.startsWith(`${dir}${path.sep}`)) {
        pids.push(Number(entry));
        break;
      }
    }
  }
  return pids;
}

/**
 * Why `command` must not open the embedded database now, or null when it may: another process holds it open,
 * or (where that cannot be checked) postmaster.pid says it may be open.
 */
export function embeddedInUseMessage(use: EmbeddedUse, command: string, pgDir: string): string | null {
  if (use.pids && use.pids.length > 0) {
    return (
      `The embedded database (${pgDir}) is open in process ${use.pids.join(', ')}: stop the studio first ` +
      `(${command} reads the embedded database directly, and PGlite cannot be opened by two processes at once).`
    );
  }
  if (use.pids === null && use.pidFile) {
    return (
      `The embedded database (${pgDir}) may be open (its postmaster.pid is there): stop the studio first ` +
      `(${command} reads the embedded database directly). If the studio is not running, it was not stopped ` +
      'cleanly: start it and stop it once (Ctrl-C), then try again.'
    );
  }
  return null;
}
