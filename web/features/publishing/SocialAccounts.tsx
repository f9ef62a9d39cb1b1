import { CheckCircle2, CircleAlert, Link2, Loader2, Unlink } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { SOCIAL_PLATFORMS, type SocialAccountStatus } from '../../../common/api/social.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmPopup } from '../../ui/ConfirmPopup.tsx';
import { cn } from '../../ui/cn.ts';
import { FormMessage } from '../../ui/Field.tsx';
import { PlatformMark } from '../../ui/PlatformMark.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useDisconnect } from './api.ts';
import { type PlatformView, useConnect, useConnectWatcher, usePlatformStates, usePlatformViews } from './connect.ts';
import { errorText, socialMessage } from './messages.ts';

const STATUS_TONE: Record<SocialAccountStatus, string> = {
  disconnected: 'text-subtle',
  connecting: 'text-accent',
  connected: 'text-success',
  posting: 'text-accent',
  success: 'text-success',
  error: 'text-danger',
};

export function StatusLabel({ status }: { status: SocialAccountStatus }) {
  const { t } = useTranslation();
  const busy = status === 'connecting' || status === 'posting';
  return (
    <span className={cn('inline-flex items-center gap-1 text-xs font-medium', STATUS_TONE[status])}>
      {busy && <Loader2 className="size-3 animate-spin" aria-hidden />}
      {(status === 'connected' || status === 'success') && <CheckCircle2 className="size-3" aria-hidden />}
      {status === 'error' && <CircleAlert className="size-3" aria-hidden />}
      {t(`publishing.status.${status}`)}
    </span>
  );
}

function AccountRow({ view, layerClassName }: { view: PlatformView; layerClassName: string }) {
  const { t, i18n } = useTranslation();
  const connect = useConnect();
  const disconnect = useDisconnect();
  const clearState = usePlatformStates((s) => s.set);
  const [confirming, setConfirming] = useState(false);
  const { platform, account, status, message } = view;
  const name = t(`publishing.platforms.${platform}`);
  const connected = account?.isConnected ?? false;
  // This server does not offer the network (production without its live credentials): no Connect, the reason.
  const unavailable = account !== undefined && !account.available;

  const onDisconnect = () =>
    disconnect.mutate(platform, {
      onSuccess: () => {
        setConfirming(false);
        clearState(platform, null);
        toast.success(t('publishing.accounts.disconnectedToast', { platform: name }));
      },
      onError: (error) => {
        setConfirming(false);
        toast.error(errorText(error, t('publishing.accounts.disconnectFailed', { platform: name })));
      },
    });

  return (
    <li
      className="px-3.5 py-3"
      data-testid={`social-${platform}`}
      data-status={status}
      data-available={unavailable ? 'false' : 'true'}
    >
      <div className="flex flex-wrap items-center gap-3">
        <PlatformMark platform={platform} />
        <div className="min-w-0 flex-1 basis-24">
          <div className="flex flex-wrap items-center gap-x-2 font-medium">
            {name}
            {account?.mode === 'sandbox' && connected && (
              <span className="rounded bg-surface-3 px-1.5 py-px text-xs font-medium uppercase tracking-wide text-muted">
                sandbox
              </span>
            )}
          </div>
          <div className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
            {unavailable && !connected ? (
              <span className="inline-flex items-center gap-1 text-xs font-medium text-subtle">
                <CircleAlert className="size-3" aria-hidden />
                {t('publishing.accounts.unavailable')}
              </span>
            ) : (
              <StatusLabel status={status} />
            )}
            {connected && account?.username && (
              <span className="truncate text-xs text-muted" dir="ltr">
                {t('publishing.accounts.connectedAs', { username: account.username })}
              </span>
            )}
            {connected && account && account.follower_count !== null && (
              <span className="text-xs text-subtle">
                {t('publishing.accounts.followers', {
                  count: account.follower_count,
                  shown: new Intl.NumberFormat(i18n.language, { notation: 'compact' }).format(account.follower_count),
                })}
              </span>
            )}
          </div>
        </div>
        <div className="flex shrink-0 items-center gap-2">
          {unavailable && !connected ? null : status === 'connecting' ? (
            <Button variant="secondary" size="sm" disabled data-testid={`social-${platform}-connecting`}>
              <Loader2 className="size-4 animate-spin" aria-hidden />
              {t('publishing.status.connecting')}
            </Button>
          ) : connected ? (
            <>
              {status === 'error' && !unavailable && (
                <Button variant="secondary" size="sm" onClick={() => void connect(platform)}>
                  {t('publishing.accounts.reconnect')}
                </Button>
              )}
              <ConfirmPopup
                open={confirming}
                onOpenChange={setConfirming}
                pending={disconnect.isPending}
                trigger={
                  <Button variant="ghost" size="sm" data-testid={`social-${platform}-disconnect`}>
                    <Unlink className="size-4" aria-hidden />
                    {t('publishing.accounts.disconnect')}
                  </Button>
                }
                title={t('publishing.accounts.confirmDisconnectTitle', { platform: name })}
                body={t('publishing.accounts.confirmDisconnectBody')}
                cancelLabel={t('publishing.scheduled.close')}
                confirmLabel={t('publishing.accounts.disconnect')}
                onConfirm={onDisconnect}
                testId="social-disconnect-confirm"
                confirmTestId="social-disconnect-confirm-button"
                layerClassName={layerClassName}
              />
            </>
          ) : (
            <Button
              variant={status === 'error' ? 'secondary' : 'primary'}
              size="sm"
              data-testid={`social-${platform}-connect`}
              onClick={() => void connect(platform)}
            >
              <Link2 className="size-4" aria-hidden />
              {status === 'error' ? t('publishing.accounts.retry') : t('publishing.accounts.connect')}
            </Button>
          )}
        </div>
      </div>
      {unavailable && account?.unavailableReason && (
        <p className="mt-2 text-xs text-muted" data-testid={`social-${platform}-unavailable`}>
          {socialMessage(account.unavailableReason)}
        </p>
      )}
      {status === 'connecting' && <p className="mt-2 text-xs text-muted">{t('publishing.accounts.waiting')}</p>}
      {status === 'error' && message && (
        <p className="mt-2 text-xs text-danger" role="alert" data-testid={`social-${platform}-error`}>
          {socialMessage(message)}
        </p>
      )}
    </li>
  );
}

/**
 * Every platform with its connection state and Connect / Disconnect. `layerClassName` lifts the disconnect
 * confirmation over the dialog this list sits in.
 */
export function SocialAccounts({ layerClassName = 'z-50' }: { layerClassName?: string }) {
  const { t } = useTranslation();
  const accounts = useConnectWatcher();
  const views = usePlatformViews(accounts.data, SOCIAL_PLATFORMS);

  if (accounts.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner className="size-6" label={t('common.loading')} />
      </div>
    );
  }
  if (accounts.isError) {
    return (
      <div className="space-y-3" role="alert">
        <FormMessage>{errorText(accounts.error, t('publishing.accounts.loadFailed'))}</FormMessage>
        <Button variant="secondary" size="sm" onClick={() => void accounts.refetch()}>
          {t('publishing.scheduled.tryAgain')}
        </Button>
      </div>
    );
  }
  return (
    <ul className="divide-y divide-line rounded-xl border border-line" data-testid="social-accounts">
      {views.map((view) => (
        <AccountRow key={view.platform} view={view} layerClassName={layerClassName} />
      ))}
    </ul>
  );
}
