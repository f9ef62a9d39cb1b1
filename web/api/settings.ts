import { useQuery } from '@tanstack/react-query';
import type { UserSettingsReply } from '../../common/api/account.ts';
import { getData } from './client.ts';

// The signed-in user's Settings (GET /api/users/settings), read by the account's Settings tab and by what the
// settings steer elsewhere (browser alerts, the publish forms' length notice). Saving lives with the tab.

export const settingsQueryKey = ['account', 'settings'] as const;

export function useUserSettings(enabled = true) {
  return useQuery({ queryKey: settingsQueryKey, enabled, queryFn: getData<UserSettingsReply>('/api/users/settings') });
}
