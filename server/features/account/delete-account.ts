import { count, eq } from 'drizzle-orm';
import { MESSAGES } from '../../../common/messages.ts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { mediaObjects, users } from '../../db/schema/index.ts';
import type { UserRow } from '../../platform/auth/session.ts';
import { conflict } from '../../platform/errors.ts';
import { confirmPassword } from '../security/service.ts';

type Deps = Pick<AppContext, 'db' | 'clock' | 'storage' | 'log'>;

/**
 * DELETE /api/users/delete-account, after the phrase check of the body schema: the password must be
 * right, and the last admin cannot delete itself (someone must be able to run the platform).
 *
 * The stored objects' keys are read first; then the user row is deleted, and every table that
 * belongs to the user goes with it (ON DELETE CASCADE: sessions, profiles, bank accounts, settings,
 * two-factor, assets, uploads, media_objects rows, ledgers, tasks …); then the bytes are deleted.
 * Bytes that cannot be deleted are logged with their keys (the rows are already gone, so nothing
 * serves them). A file stored concurrently after the read cannot get a row any more (the owner is
 * gone), and MediaStore.put removes such bytes itself.
 */
export async function deleteAccount(
  deps: Deps,
  user: UserRow,
  password: string,
  ip: string,
): Promise<{ files: number }> {
  await confirmPassword(deps, user, password, MESSAGES.account.passwordWrong, ip);
  if (user.role === 'admin') {
    const [admins] = await deps.db.select({ n: count() }).from(users).where(eq(users.role, 'admin'));
    if (Number(admins?.n ?? 0) <= 1) throw conflict(MESSAGES.account.lastAdmin);
  }
  return purgeUser(deps, user.id);
}

/**
 * Deletes a user's rows and stored files (used by account deletion and by the admin's deletion).
 * `within` runs in the same transaction as the row deletion, before it: checks that must hold at
 * that moment, and the audit row of an admin deletion.
 */
export async function purgeUser(
  deps: Deps,
  userId: string,
  within?: (tx: Tx, files: number) => Promise<void>,
): Promise<{ files: number }> {
  const objects = await deps.db
    .select({ key: mediaObjects.key })
    .from(mediaObjects)
    .where(eq(mediaObjects.userId, userId));
  await deps.db.transaction(async (tx) => {
    await within?.(tx, objects.length);
    await tx.delete(users).where(eq(users.id, userId));
  });

  const failed: string[] = [];
  for (const { key } of objects) {
    try {
      await deps.storage.delete(key);
    } catch {
      failed.push(key);
    }
  }
  if (failed.length > 0) {
    deps.log.error({ userId, keys: failed }, 'stored files of a deleted account could not be deleted');
  }
  deps.log.info({ userId, files: objects.length }, 'account deleted');
  return { files: objects.length };
}
