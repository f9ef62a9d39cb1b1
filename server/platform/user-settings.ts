// A user's stored preferences (spec 3 Settings), read by every feature that honours one: notifications, login
// alerts, publishing (auto-publish, cross-post optimisation, YouTube privacy), the weekly report.
import { eq } from 'drizzle-orm';
import { SETTINGS_DEFAULTS } from '../../common/api/account.constants.ts';
import type { DbOrTx } from '../db/client.ts';
import { userSettings } from '../db/schema/index.ts';

type SettingsRow = typeof userSettings.$inferSelect;
export type StoredSettings = Omit<SettingsRow, 'userId' | 'createdAt' | 'updatedAt'>;

/** The stored preferences, or the spec defaults when the user never saved any (no row is written). */
export async function storedSettings(db: DbOrTx, userId: string): Promise<StoredSettings> {
  const [row] = await db.select().from(userSettings).where(eq(userSettings.userId, userId)).limit(1);
  if (!row) return { ...SETTINGS_DEFAULTS };
  const { userId: _u, createdAt: _c, updatedAt: _m, ...rest } = row;
  return rest;
}
