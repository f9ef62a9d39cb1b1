import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, inject } from 'vitest';
import type { SocialPlatform } from '../../common/api/social.ts';
import type { Database } from '../db/client.ts';
import { socialPublishJournal } from '../db/schema/index.ts';
import { databasePublishJournal } from '../features/social/publish-journal.ts';
import { openTestDatabase } from './databases.ts';

/**
 * The live connectors' publish journal on a migrated database of its own, for the tests of one file (call at the
 * top level: it opens the database before the file's tests and closes it after them). Each connector built over
 * `journal()` shares nothing with another but that database, as two processes of the studio.
 */
export function testPublishJournal() {
  let database: Database | undefined;
  beforeAll(async () => {
    database = await openTestDatabase(inject('dbTemplate'));
  });
  afterAll(async () => {
    await database?.close();
  });
  const db = () => {
    if (!database) throw new Error('testPublishJournal: the database opens before the tests');
    return database.db;
  };
  return {
    db,
    journal: () => databasePublishJournal(db()),
    /** The journal's row of one publish as stored (to see what it keeps), or undefined. */
    async row(platform: SocialPlatform, accountId: string, idempotencyKey: string) {
      const [row] = await db()
        .select()
        .from(socialPublishJournal)
        .where(
          and(
            eq(socialPublishJournal.platform, platform),
            eq(socialPublishJournal.accountId, accountId),
            eq(socialPublishJournal.idempotencyKey, idempotencyKey),
          ),
        );
      return row;
    },
  };
}
