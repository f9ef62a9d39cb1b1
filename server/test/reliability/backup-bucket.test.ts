import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../../scripts/backups/schema.ts';
import { openPglite } from '../../db/client.ts';
import { type FakeS3, startFakeS3 } from '../../platform/storage/fake-s3.ts';
import { S3Storage } from '../../platform/storage/s3.ts';
import { previousMigrations } from '../upgrade/previous-migrations.ts';
import { runScript } from './backup-scripts.ts';

// With media in S3, `npm run backup --include-bucket` copies the bucket's objects into the archive (bytes, content
// type, tags) and `npm run restore` puts them into the bucket the restoring studio is configured with. The backed-up
// database is at the previous schema version, so the restore also migrates it.

const s3Env = (s3: FakeS3) => ({
  S3_BUCKET: s3.bucket,
  S3_ENDPOINT: s3.endpoint,
  S3_REGION: 'us-east-1',
  S3_FORCE_PATH_STYLE: 'true',
  S3_ACCESS_KEY_ID: 'test',
  S3_SECRET_ACCESS_KEY: 'test',
});

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

describe('backup and restore of media in S3', () => {
  it('--include-bucket carries every object, with its type and tags, into the restored bucket; an older schema is migrated', {
    timeout: 300_000,
  }, async () => {
    const fromDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-bucket-src-'));
    const toDir = await mkdtemp(path.join(os.tmpdir(), 'genpro-bucket-dst-'));
    cleanups.push(() => rm(fromDir, { recursive: true, force: true }));
    cleanups.push(() => rm(toDir, { recursive: true, force: true }));
    // The source is at the previous schema version: restore brings it to the current one.
    const older = await openPglite({ dataDir: path.join(fromDir, 'pg') });
    await migrate(older.db as unknown as Parameters<typeof migrate>[0], {
      migrationsFolder: await previousMigrations(fromDir),
    });
    await older.close();
    const journal = await readJournal();
    const source = await startFakeS3('studio-media');
    const target = await startFakeS3('studio-media-restored');
    cleanups.push(source.close, target.close);

    const storage = new S3Storage({
      bucket: source.bucket,
      region: 'us-east-1',
      endpoint: source.endpoint,
      forcePathStyle: true,
      accessKeyId: 'test',
      secretAccessKey: 'test',
    });
    const objects = [
      {
        key: 'upload/2026/01/0b6c3f0e-0c1d-4c55-9a57-4a7c1c0e2b11.png',
        body: Buffer.from('png bytes'),
        contentType: 'image/png',
      },
      {
        key: 'temp/preview/5f1d0a8e-2b8b-4f0e-8b7e-3d6f0f1a2c33.mp4',
        body: Buffer.from('mp4 bytes'),
        contentType: 'video/mp4',
      },
    ];
    for (const o of objects) {
      await storage.put(o.key, o.body, {
        contentType: o.contentType,
        storageClass: 'upload',
        tags: { Classification: 'upload', UserId: 'u-1' },
      });
    }

    const archive = path.join(fromDir, 'backups', 'media.tar.gz');
    const backup = await runScript('backup', ['--out', archive, '--include-bucket'], {
      dataDir: fromDir,
      env: s3Env(source),
    });
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain('media: 2 files');
    expect(backup.output).toContain(`schema ${journal.at(-2)?.tag}`);

    const restore = await runScript('restore', [archive], { dataDir: toDir, env: s3Env(target) });
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toContain(`media: 2 files`);
    expect(restore.output).toContain('S3 bucket studio-media-restored');
    // An archive of an older schema is migrated to the one this code has.
    expect(restore.output).toContain(`schema ${journal.at(-2)?.tag}, migrated to ${journal.at(-1)?.tag}`);
    for (const o of objects) {
      const copy = target.objects.get(o.key);
      expect(copy?.body).toEqual(o.body);
      expect(copy?.contentType).toBe(o.contentType);
      expect(copy?.tags).toEqual({ Classification: 'upload', UserId: 'u-1' });
    }
    // Nothing of the bucket lands on the restoring studio's disk.
    await expect(readFile(path.join(toDir, 'media', objects[0]!.key))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
