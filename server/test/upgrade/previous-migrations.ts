import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MIGRATIONS_FOLDER } from '../../../scripts/backups/schema.ts';

/**
 * A copy of the migrations folder, in `dir`, whose journal ends before the newest migration: drizzle's migrator
 * applied to it builds the PREVIOUS schema version. Returns the folder.
 */
export async function previousMigrations(dir: string): Promise<string> {
  const folder = path.join(dir, 'migrations');
  await mkdir(path.join(folder, 'meta'), { recursive: true });
  for (const file of await readdir(MIGRATIONS_FOLDER)) {
    if (file.endsWith('.sql')) await copyFile(path.join(MIGRATIONS_FOLDER, file), path.join(folder, file));
  }
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  journal.entries = journal.entries.slice(0, -1);
  await writeFile(path.join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
  return folder;
}
