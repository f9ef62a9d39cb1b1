import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { create } from 'zustand';
import type { SocialAccount, SocialAccountStatus, SocialPlatform } from '../../../common/api/social.ts';
import { connectPlatform, useSocialAccounts } from './api.ts';
import { errorText } from './messages.ts';

// Spec 4 Social account status. The server knows disconnected, connected and error; connecting (authorization
// tab open), posting (a publish running) and success/error of the last publish are kept here, on the client,
// and shared by the Social tab and the Publish tab.
interface Transient {
  status: Extract<SocialAccountStatus, 'connecting' | 'posting' | 'success' | 'error'>;
  message?: string;
}

interface PlatformStates {
  transient: Partial<Record<SocialPlatform, Transient>>;
  set: (platform: SocialPlatform, state: Transient | null) => void;
}

export const usePlatformStates = create<PlatformStates>((set) => ({
  transient: {},
  set: (platform, state) =>
    set((current) => {
      const transient = { ...current.transient };
      if (state) transient[platform] = state;
      else delete transient[platform];
      return { transient };
    }),
}));

/** The authorization tabs still open, by platform; a closed tab without a connection ends the attempt. */
const openTabs = new Map<SocialPlatform, { tab: Window; started: number }>();
const CONNECT_TIMEOUT_MS = 10 * 60_000;

export interface PlatformView {
  platform: SocialPlatform;
  account: SocialAccount | undefined;
  status: SocialAccountStatus;
  message: string | null;
}

/** Each platform's account with its shown state: the client's transient one over the server's. */
export function usePlatformViews(accounts: SocialAccount[] | undefined, platforms: readonly SocialPlatform[]) {
  const transient = usePlatformStates((s) => s.transient);
  return platforms.map((platform): PlatformView => {
    const account = accounts?.find((a) => a.platform === platform);
    const local = transient[platform];
    if (local) return { platform, account, status: local.status, message: local.message ?? null };
    const status = account?.status ?? 'disconnected';
    return { platform, account, status, message: status === 'error' ? (account?.error_message ?? null) : null };
  });
}

/**
 * Connect: open a tab at once (a tab opened after an await is blocked as a pop-up), ask for the authorization
 * URL, send the tab there, then poll the accounts until the platform reports connected or the tab closes.
 */
export function useConnect() {
  const { t } = useTranslation();
  const setState = usePlatformStates((s) => s.set);
  return async (platform: SocialPlatform) => {
    const name = t(`publishing.platforms.${platform}`);
    const tab = window.open('about:blank', '_blank');
    if (!tab) {
      setState(platform, { status: 'error', message: t('publishing.accounts.popupBlocked') });
      return;
    }
    setState(platform, { status: 'connecting' });
    try {
      const reply = await connectPlatform(platform);
      tab.location.href = reply.authUrl;
      openTabs.set(platform, { tab, started: Date.now() });
    } catch (error) {
      tab.close();
      setState(platform, {
        status: 'error',
        message: errorText(error, t('publishing.accounts.connectFailed', { platform: name })),
      });
    }
  };
}

/** Mount once where accounts are shown: reads the accounts while an OAuth connection is under way (not a task, see
 * useSocialAccounts) and settles it. */
export function useConnectWatcher() {
  const { t } = useTranslation();
  const transient = usePlatformStates((s) => s.transient);
  const setState = usePlatformStates((s) => s.set);
  const connecting = Object.entries(transient).some(([, state]) => state?.status === 'connecting');
  const accounts = useSocialAccounts({ poll: connecting });
  const refetch = accounts.refetch;

  // Read from the store, not this render: the watcher may be mounted twice (Publish tab and account dialog).
  const settleConnected = useCallback(
    (platform: SocialPlatform) => {
      if (usePlatformStates.getState().transient[platform]?.status !== 'connecting') return;
      openTabs.delete(platform);
      setState(platform, null);
      toast.success(t('publishing.accounts.connectedToast', { platform: t(`publishing.platforms.${platform}`) }));
    },
    [setState, t],
  );

  useEffect(() => {
    for (const platform of Object.keys(transient) as SocialPlatform[]) {
      if (accounts.data?.find((a) => a.platform === platform)?.isConnected) settleConnected(platform);
    }
  }, [accounts.data, transient, settleConnected]);

  // A tab closed without connecting (denied, or closed by the user): check once more, then give up. The timer looks
  // at the OAuth tab (a window of another origin sends no event when it closes), not at a task.
  useEffect(() => {
    if (!connecting) return;
    const timer = window.setInterval(() => {
      for (const [platform, { tab, started }] of openTabs) {
        const expired = Date.now() - started > CONNECT_TIMEOUT_MS;
        if (!tab.closed && !expired) continue;
        openTabs.delete(platform);
        void refetch().then(({ data }) => {
          if (data?.find((a) => a.platform === platform)?.isConnected) {
            settleConnected(platform);
            return;
          }
          if (usePlatformStates.getState().transient[platform]?.status !== 'connecting') return;
          setState(platform, {
            status: 'error',
            message: t('publishing.accounts.notCompleted', { platform: t(`publishing.platforms.${platform}`) }),
          });
        });
      }
    }, 1000);
    return () => window.clearInterval(timer);
  }, [connecting, refetch, settleConnected, setState, t]);

  return accounts;
}
