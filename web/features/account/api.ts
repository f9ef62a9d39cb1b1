// TanStack Query hooks for the account dialog (common/api/account.ts and the session routes of auth).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { SETTINGS_DEFAULTS } from '../../../common/api/account.constants.ts';
import type {
  AvatarReply,
  BankAccount,
  BankAccountsChangedReply,
  BankAccountsReply,
  BrandLogoReply,
  BrandProfileReply,
  CreateBankAccountBody,
  CreateBankAccountReply,
  CreatorProfileReply,
  DeleteAccountBody,
  LoginReply,
  LoginTwoFactorBody,
  SecurityActionBody,
  SecurityActionReply,
  SecurityReply,
  TwoFactorEnableReply,
  TwoFactorSetupReply,
  UpdateBrandProfileBody,
  UpdateCreatorProfileBody,
  UpdateUserProfileBody,
  UpdateUserSettingsBody,
  UserSettingsReply,
  userProfileReply,
} from '../../../common/api/account.ts';
import type { LoginBody, SessionReply, SessionsReply, User } from '../../../common/api/auth.ts';
import type { messageReply } from '../../../common/api/envelope.ts';
import type { StorageUsageReply } from '../../../common/api/uploads.ts';
import { invalidateOwnAccount, OWN_ACCOUNT } from '../../api/account-events.ts';
import { type Me, meQueryKey } from '../../api/auth.ts';
import { ApiError, apiRequest, getData } from '../../api/client.ts';
import { clearSession, getToken, saveSession } from '../../api/session.ts';
import { settingsQueryKey } from '../../api/settings.ts';
import { usePreferences } from '../../ui/preferences.ts';

type MessageReply = z.infer<typeof messageReply>;
type UserProfileReply = z.infer<typeof userProfileReply>;

const accountKeys = {
  creatorProfile: ['account', 'creator-profile'] as const,
  brandProfile: ['account', 'brand-profile'] as const,
  bankAccounts: ['account', 'bank-accounts'] as const,
  settings: settingsQueryKey,
  security: ['account', 'security'] as const,
  sessions: ['auth', 'sessions'] as const,
  storage: ['account', 'storage'] as const,
};

/** Put a fresh user into the cached /me answer (credits stay as they are). */
function useSetUser() {
  const queryClient = useQueryClient();
  return (user: User) => {
    queryClient.setQueriesData<Me>({ queryKey: meQueryKey }, (old) => (old ? { ...old, user } : old));
    void queryClient.invalidateQueries({ queryKey: meQueryKey });
  };
}

// ---- Storage ----

/** Bytes the user stores against the quota; refreshed whenever the Billing tab opens. */
export function useStorageUsage() {
  return useQuery({
    queryKey: accountKeys.storage,
    queryFn: getData<StorageUsageReply>('/api/account/storage'),
    staleTime: 0,
  });
}

// ---- Profiles ----

export function useCreatorProfile(enabled: boolean) {
  return useQuery({
    queryKey: accountKeys.creatorProfile,
    enabled,
    queryFn: getData<CreatorProfileReply>('/api/creators/profile'),
  });
}

export function useSaveCreatorProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateCreatorProfileBody) =>
      apiRequest<CreatorProfileReply>('/api/creators/profile', { method: 'PATCH', body }).then((r) => r.data),
    onSuccess: (data) => queryClient.setQueryData(accountKeys.creatorProfile, data),
  });
}

export function useBrandProfile(enabled: boolean) {
  return useQuery({
    queryKey: accountKeys.brandProfile,
    enabled,
    queryFn: getData<BrandProfileReply>('/api/brands/profile'),
  });
}

/**
 * Sets the brand logo from one of the brand's own images: a file it uploads now (multipart) or the URL of an
 * image of its media library (JSON {logoUrl}). Never a typed URL: the server refuses those (issue 27).
 */
async function setBrandLogo(source: File | string): Promise<BrandLogoReply> {
  const token = getToken();
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
  };
  let body: BodyInit;
  if (typeof source === 'string') {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify({ logoUrl: source });
  } else {
    const form = new FormData();
    form.append('file', source);
    body = form;
  }
  let response: Response;
  try {
    response = await fetch('/api/brands/logo', { method: 'POST', body, credentials: 'same-origin', headers });
  } catch {
    throw new ApiError(0, 'Network error', 'NETWORK');
  }
  const json = (await response.json().catch(() => ({}))) as Partial<BrandLogoReply> & { error?: unknown };
  if (!response.ok || json.success !== true)
    throw new ApiError(response.status, typeof json.error === 'string' ? json.error : '');
  return json as BrandLogoReply;
}

export function useSetBrandLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setBrandLogo,
    onSuccess: (reply) => queryClient.setQueryData(accountKeys.brandProfile, reply.data.profile),
  });
}

export function useSaveBrandProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateBrandProfileBody) =>
      apiRequest<BrandProfileReply>('/api/brands/profile', { method: 'PATCH', body }).then((r) => r.data),
    onSuccess: (data) => queryClient.setQueryData(accountKeys.brandProfile, data),
  });
}

export function useSaveUserProfile() {
  const setUser = useSetUser();
  return useMutation({
    mutationFn: (body: UpdateUserProfileBody) =>
      apiRequest<UserProfileReply>('/api/users/profile', { method: 'PUT', body }).then((r) => r.data),
    onSuccess: setUser,
  });
}

/** Multipart upload of one image (the JSON helper only sends JSON). */
async function uploadAvatar(file: File): Promise<AvatarReply> {
  const form = new FormData();
  form.append('file', file);
  const token = getToken();
  let response: Response;
  try {
    response = await fetch('/api/users/avatar', {
      method: 'POST',
      body: form,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        'X-Requested-With': 'XMLHttpRequest',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
    });
  } catch {
    throw new ApiError(0, 'Network error', 'NETWORK');
  }
  const json = (await response.json().catch(() => ({}))) as Partial<AvatarReply> & { error?: unknown };
  if (!response.ok || json.success !== true)
    throw new ApiError(response.status, typeof json.error === 'string' ? json.error : '');
  return json as AvatarReply;
}

export function useUploadAvatar() {
  const setUser = useSetUser();
  return useMutation({ mutationFn: uploadAvatar, onSuccess: (reply) => setUser(reply.data.user) });
}

// ---- Bank accounts (creators and brands each have their own route) ----

const bankPath = (role: 'creator' | 'brand') =>
  role === 'creator' ? '/api/creators/bank-accounts' : '/api/brands/bank-accounts';

export function useBankAccounts(role: 'creator' | 'brand' | null) {
  return useQuery({
    queryKey: [...accountKeys.bankAccounts, role],
    enabled: role !== null,
    meta: OWN_ACCOUNT,
    queryFn: getData<BankAccountsReply>(bankPath(role ?? 'creator')),
  });
}

export function useBankAccountMutations(role: 'creator' | 'brand') {
  const queryClient = useQueryClient();
  const key = [...accountKeys.bankAccounts, role];
  // The list as the server answered it, and everything else that shows the primary account (the payouts card)
  // read again at once: this tab does not wait for the account event of its own change.
  const changed = (accounts: BankAccount[]) => {
    queryClient.setQueryData(key, accounts);
    return invalidateOwnAccount(queryClient);
  };
  const add = useMutation({
    mutationFn: (body: CreateBankAccountBody) =>
      apiRequest<CreateBankAccountReply>(bankPath(role), { method: 'POST', body }),
    onSuccess: (reply) => changed(reply.accounts),
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      apiRequest<BankAccountsChangedReply>(`${bankPath(role)}?id=${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: (reply) => changed(reply.data),
  });
  const makePrimary = useMutation({
    mutationFn: (id: string) =>
      apiRequest<BankAccountsChangedReply>(`${bankPath(role)}?id=${encodeURIComponent(id)}`, {
        method: 'PATCH',
        body: { is_primary: true },
      }),
    onSuccess: (reply) => changed(reply.data),
  });
  return { add, remove, makePrimary };
}

// ---- Settings ----

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateUserSettingsBody) =>
      apiRequest<UserSettingsReply>('/api/users/settings', { method: 'PUT', body }).then((r) => r.data),
    onSuccess: (data) => {
      queryClient.setQueryData(accountKeys.settings, data);
      void queryClient.invalidateQueries({ queryKey: accountKeys.security });
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
    },
  });
}

// ---- Security ----

export function useSecurity(enabled = true) {
  return useQuery({
    queryKey: accountKeys.security,
    enabled,
    queryFn: getData<SecurityReply>('/api/users/security'),
  });
}

export function useSecurityAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SecurityActionBody) =>
      apiRequest<SecurityActionReply>('/api/users/security', { method: 'POST', body }),
    onSuccess: (reply) => {
      queryClient.setQueryData(accountKeys.security, reply.data);
      void queryClient.invalidateQueries({ queryKey: accountKeys.settings });
    },
  });
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<MessageReply>(`/api/auth/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: accountKeys.security });
      void queryClient.invalidateQueries({ queryKey: accountKeys.sessions });
    },
  });
}

/**
 * Calls that end the session: `leave` runs first (it navigates away from the dashboard), then the token and
 * cached data are dropped; in the other order the dashboard guard would unmount the caller first.
 */
function useEndSession<T>(leave: (reply: T) => void) {
  const queryClient = useQueryClient();
  return (reply: T) => {
    leave(reply);
    clearSession();
    queryClient.removeQueries();
  };
}

export function useRevokeAllSessions(leave: (reply: MessageReply) => void) {
  const end = useEndSession(leave);
  return useMutation({
    mutationFn: () => apiRequest<MessageReply>('/api/users/sessions/revoke-all', { method: 'DELETE' }),
    onSuccess: end,
  });
}

/** GET /api/auth/sessions: used while the security state cannot be read. */
export function useSessions(enabled: boolean) {
  return useQuery({
    queryKey: accountKeys.sessions,
    enabled,
    queryFn: getData<SessionsReply>('/api/auth/sessions'),
  });
}

export function useTwoFactor() {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: accountKeys.security });
    void queryClient.invalidateQueries({ queryKey: accountKeys.settings });
    // Turning two-factor on signs the other sessions out.
    void queryClient.invalidateQueries({ queryKey: accountKeys.sessions });
  };
  const setup = useMutation({
    mutationFn: () =>
      apiRequest<TwoFactorSetupReply>('/api/users/two-factor/setup', { method: 'POST', body: {} }).then((r) => r.data),
  });
  const enable = useMutation({
    mutationFn: (code: string) =>
      apiRequest<TwoFactorEnableReply>('/api/users/two-factor/enable', { method: 'POST', body: { code } }),
    onSuccess: refresh,
  });
  const disable = useMutation({
    mutationFn: (body: { password: string; code: string }) =>
      apiRequest<MessageReply>('/api/users/two-factor/disable', { method: 'POST', body }),
    onSuccess: refresh,
  });
  return { setup, enable, disable };
}

export function useDeleteAccount(leave: (reply: MessageReply) => void) {
  const end = useEndSession(leave);
  return useMutation({
    mutationFn: (body: DeleteAccountBody) =>
      apiRequest<MessageReply>('/api/users/delete-account', { method: 'DELETE', body }),
    onSuccess: end,
  });
}

// ---- Log-in with the second step ----

/**
 * A theme or language the user saved in Settings becomes the shell's as soon as they sign in. Server defaults
 * are not applied, so a choice made on the log-in page itself is kept.
 */
async function applySavedPreferences(queryClient: ReturnType<typeof useQueryClient>) {
  try {
    const settings = await queryClient.fetchQuery({
      queryKey: accountKeys.settings,
      queryFn: getData<UserSettingsReply>('/api/users/settings'),
    });
    const { setTheme, setLanguage } = usePreferences.getState();
    if (settings.themePreference !== SETTINGS_DEFAULTS.themePreference) setTheme(settings.themePreference);
    if (settings.languagePreference !== SETTINGS_DEFAULTS.languagePreference) setLanguage(settings.languagePreference);
  } catch {
    // Keep the current preferences: the settings can be changed again in the Settings tab.
  }
}

function useStoreSession() {
  const queryClient = useQueryClient();
  return (reply: SessionReply) => {
    saveSession(reply.data.token, reply.data.user);
    void applySavedPreferences(queryClient);
    queryClient.setQueryData<Me>([...meQueryKey, reply.data.token], {
      user: reply.data.user,
      credits: reply.data.user.credits,
    });
    void queryClient.invalidateQueries({ queryKey: meQueryKey });
  };
}

/** POST /api/auth/login: either a session, or a challenge that asks for the second factor or the mailed code. */
export function usePasswordLogin() {
  const store = useStoreSession();
  return useMutation({
    mutationFn: (body: LoginBody) => apiRequest<LoginReply>('/api/auth/login', { method: 'POST', body }),
    onSuccess: (reply) => {
      if ('data' in reply) store(reply);
    },
  });
}

export function useTwoFactorLogin() {
  const store = useStoreSession();
  return useMutation({
    mutationFn: (body: LoginTwoFactorBody) =>
      apiRequest<SessionReply>('/api/auth/login/two-factor', { method: 'POST', body }),
    onSuccess: store,
  });
}
