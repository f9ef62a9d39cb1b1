import { eq } from 'drizzle-orm';
import {
  DEFAULT_TIMEZONE,
  NOTIFICATION_FREQUENCIES,
  SETTINGS_DEFAULTS,
} from '../../../common/api/account.constants.ts';
import type { UpdateUserSettingsBody, UserSettings } from '../../../common/api/account.ts';
import type { AppContext } from '../../context.ts';
import { userSettings, users } from '../../db/schema/index.ts';
import { notFound } from '../../platform/errors.ts';
import { storedSettings } from '../../platform/user-settings.ts';
import { isTwoFactorEnabled } from '../security/two-factor.ts';

function toFrequency(value: string): UserSettings['notificationFrequency'] {
  return (NOTIFICATION_FREQUENCIES as readonly string[]).includes(value)
    ? (value as UserSettings['notificationFrequency'])
    : SETTINGS_DEFAULTS.notificationFrequency;
}

/** GET /api/users/settings: every field of spec 3 Settings. */
export async function getSettings(deps: Pick<AppContext, 'db'>, userId: string): Promise<UserSettings> {
  const [user] = await deps.db.select({ timezone: users.timezone }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw notFound();
  const s = await storedSettings(deps.db, userId);
  return {
    emailNotifications: s.emailNotifications,
    pushNotifications: s.pushNotifications,
    marketingEmails: s.marketingEmails,
    weeklyReports: s.weeklyReports,
    twoFactorAuth: await isTwoFactorEnabled(deps.db, userId),
    profileVisibility: s.profileVisibility,
    autoPublish: s.autoPublish,
    crossPostOptimization: s.crossPostOptimization,
    youtubePrivacy: s.youtubePrivacy,
    languagePreference: s.languagePreference,
    themePreference: s.themePreference,
    timezone: user.timezone || DEFAULT_TIMEZONE,
    notificationFrequency: toFrequency(s.notificationFrequency),
    loginNotifications: s.loginNotifications,
    suspiciousActivityAlerts: s.suspiciousActivityAlerts,
  };
}

/** Writes the given preferences (creating the row on first save); timezone goes to users.timezone. */
export async function saveSettings(
  deps: Pick<AppContext, 'db' | 'clock'>,
  userId: string,
  body: UpdateUserSettingsBody,
): Promise<UserSettings> {
  const now = deps.clock.now();
  const { timezone, ...rest } = body;
  const patch = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)) as typeof rest;
  await deps.db.transaction(async (tx) => {
    if (Object.keys(patch).length > 0) {
      await tx
        .insert(userSettings)
        .values({ userId, ...patch, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: userSettings.userId, set: { ...patch, updatedAt: now } });
    }
    if (timezone !== undefined) {
      await tx.update(users).set({ timezone, updatedAt: now }).where(eq(users.id, userId));
    }
  });
  return getSettings(deps, userId);
}
