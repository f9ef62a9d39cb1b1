import { ExternalLink, RefreshCw } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { ConnectAccountDto } from '../../../common/api/payouts.ts';
import { useFormatDate } from '../../i18n/format.ts';
import { translateMessage } from '../../i18n/index.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { FormMessage } from '../../ui/Field.tsx';
import { LoadError, Loading, Section } from '../../ui/Section.tsx';
import { useConnectStatus, useRefreshConnect, useStartOnboarding } from './api.ts';

/** Where Stripe sends the creator back (server/features/payouts/connect.ts onboardingUrls): ?stripe=return|refresh. */
const RETURN_PARAM = 'stripe';

function Flag({ on, label, testId }: { on: boolean; label: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className="min-w-0">
      <dt className="text-xs text-subtle">{label}</dt>
      <dd className={cn('text-sm font-medium', on ? 'text-success' : 'text-warning')} data-testid={testId} data-on={on}>
        {on ? t('payouts.connect.yes') : t('payouts.connect.no')}
      </dd>
    </div>
  );
}

function AccountStatus({ account }: { account: ConnectAccountDto }) {
  const { t } = useTranslation();
  const date = useFormatDate();
  return (
    <div className="space-y-3">
      <dl className="grid gap-3 rounded-xl border border-line p-3.5 sm:grid-cols-3">
        <Flag on={account.detailsSubmitted} label={t('payouts.connect.details')} testId="connect-details" />
        <Flag on={account.chargesEnabled} label={t('payouts.connect.charges')} testId="connect-charges" />
        <Flag on={account.payoutsEnabled} label={t('payouts.connect.payouts')} testId="connect-payouts" />
      </dl>
      {account.disabledReason && (
        <p className="text-sm text-warning" data-testid="connect-disabled-reason">
          {t('payouts.connect.disabledReason')} <code dir="ltr">{account.disabledReason}</code>
        </p>
      )}
      {account.requirementsDue.length > 0 && (
        <div data-testid="connect-requirements">
          <p className="text-sm">{t('payouts.connect.requirements')}</p>
          <ul className="mt-1 list-disc ps-5 text-xs text-muted">
            {account.requirementsDue.map((item) => (
              <li key={item} dir="ltr" className="text-start">
                {item}
              </li>
            ))}
          </ul>
        </div>
      )}
      <p className="text-xs text-subtle">
        {t('payouts.connect.account')} <bdi dir="ltr">{account.stripeAccountId}</bdi>
        {account.statusSyncedAt && <> · {t('payouts.connect.checked', { date: date(account.statusSyncedAt, true) })}</>}
      </p>
    </div>
  );
}

/**
 * Settings, creators: how this studio pays them. With Stripe, the creator sets up their Stripe Connect
 * (Express) account here; Stripe sends them back to ?stripe=return (the status is read again) or
 * ?stripe=refresh (the link had expired: a new one is made and opened).
 */
export function StripeConnectCard() {
  const { t } = useTranslation();
  const status = useConnectStatus();
  const start = useStartOnboarding();
  const refresh = useRefreshConnect();
  const [params, setParams] = useSearchParams();
  const handled = useRef(false);
  const back = params.get(RETURN_PARAM);
  const mode = status.data?.studioMode;

  const open = () =>
    start.mutate(undefined, {
      onSuccess: (reply) => window.location.assign(reply.data.url),
    });

  // Once per return from Stripe, when the studio's mode is known (the ref keeps it to one run).
  // biome-ignore lint/correctness/useExhaustiveDependencies: open/refresh/setParams are fresh each render
  useEffect(() => {
    if (handled.current || mode !== 'stripe' || (back !== 'return' && back !== 'refresh')) return;
    handled.current = true;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(RETURN_PARAM);
        return next;
      },
      { replace: true },
    );
    if (back === 'return') refresh.mutate();
    else open();
  }, [mode, back]);

  const account = status.data?.account ?? null;
  const error = start.error ?? refresh.error;
  return (
    <Section
      title={t('payouts.connect.title')}
      description={mode === 'stripe' ? t('payouts.connect.hintStripe') : t('payouts.connect.hintManual')}
      testId="stripe-connect"
    >
      {status.isPending ? (
        <Loading />
      ) : status.isError ? (
        <LoadError message={translateMessage(status.error.message)} onRetry={() => status.refetch()} />
      ) : (
        <div className="space-y-3" data-testid="stripe-connect-body" data-mode={status.data.studioMode}>
          <p className="text-sm" data-testid="payout-mode">
            {status.data.studioMode === 'stripe' ? t('payouts.connect.modeStripe') : t('payouts.connect.modeManual')}
          </p>
          {account && <AccountStatus account={account} />}
          {status.data.studioMode === 'stripe' && (
            <div className="flex flex-wrap gap-2">
              {(!account?.payoutsEnabled || (account?.requirementsDue.length ?? 0) > 0) && (
                <Button onClick={open} loading={start.isPending} data-testid="connect-start">
                  <ExternalLink className="size-4" aria-hidden />
                  {account ? t('payouts.connect.continue') : t('payouts.connect.start')}
                </Button>
              )}
              {account && (
                <Button
                  variant="secondary"
                  onClick={() => refresh.mutate()}
                  loading={refresh.isPending}
                  data-testid="connect-refresh"
                >
                  <RefreshCw className="size-4" aria-hidden />
                  {t('payouts.connect.refresh')}
                </Button>
              )}
            </div>
          )}
          {error && <FormMessage>{translateMessage(error.message)}</FormMessage>}
        </div>
      )}
    </Section>
  );
}
