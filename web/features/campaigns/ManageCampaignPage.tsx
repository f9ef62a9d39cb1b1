import '../../i18n/en-features.ts';
import { ArrowLeft, Check, CheckCheck, Inbox, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import type { Application, Campaign, CampaignCollaboration } from '../../../common/api/campaigns.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { useFormatDate, useFormatEuros } from '../../i18n/format.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmPopup } from '../../ui/ConfirmPopup.tsx';
import { PublicHeader } from '../../ui/PublicHeader.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { useApplicationAction, useCampaign, useCampaignApplications, useCompleteCollaboration } from './api.ts';
import { CampaignDetailsDialog, CollaborationRow, campaignLoadError, Thumbnail } from './CampaignDetailsDialog.tsx';
import { missingDeliverables } from './DeliveredPosts.tsx';
import { CreatorAvatar, LoadFailed, StatusBadge, useCampaignLabels } from './labels.tsx';
import { errorText } from './messages.ts';
import { StatusControls } from './StatusControls.tsx';

function ApplicationItem({ application }: { application: Application }) {
  const { t } = useTranslation();
  const euros = useFormatEuros();
  const date = useFormatDate();
  const action = useApplicationAction();
  const [running, setRunning] = useState<'accept' | 'decline' | null>(null);
  const decide = (kind: 'accept' | 'decline') => {
    setRunning(kind);
    action.mutate(
      { id: application.id, action: kind },
      {
        onSuccess: () =>
          toast.success(
            t(`campaigns.manage.${kind === 'accept' ? 'accepted' : 'declined'}`, { name: application.creator_name }),
          ),
        onError: (error) => toast.error(errorText(error, MESSAGES.generic.internal)),
        onSettled: () => setRunning(null),
      },
    );
  };
  return (
    <li
      className="space-y-2 rounded-xl border border-line bg-surface p-3"
      data-testid="application"
      data-application-id={application.id}
      data-status={application.status}
    >
      <div className="flex flex-wrap items-center gap-2.5">
        <CreatorAvatar url={application.creator_avatar} />
        <div className="min-w-0 flex-1">
          <Link to={`/creators/${application.creator_id}`} className="truncate text-sm font-medium hover:underline">
            {application.creator_name}
          </Link>
          <p className="text-xs text-muted">
            {t('campaigns.manage.rate', { rate: euros(application.rate) })} · {date(application.created_at)}
          </p>
        </div>
        <StatusBadge status={application.status} />
      </div>
      <p
        dir="auto"
        className="whitespace-pre-line break-words rounded-lg bg-surface-2 px-3 py-2 text-sm leading-relaxed"
      >
        {application.message}
      </p>
      {application.status === 'pending' && (
        <div className="flex justify-end gap-2">
          <Button
            size="sm"
            variant="ghost"
            onClick={() => decide('decline')}
            loading={running === 'decline'}
            disabled={running !== null}
            data-testid="application-decline"
          >
            <X className="size-3.5" aria-hidden />
            {t('campaigns.manage.decline')}
          </Button>
          <Button
            size="sm"
            onClick={() => decide('accept')}
            loading={running === 'accept'}
            disabled={running !== null}
            data-testid="application-accept"
          >
            <Check className="size-3.5" aria-hidden />
            {t('campaigns.manage.accept')}
          </Button>
        </div>
      )}
    </li>
  );
}

function CompleteButton({ collaboration }: { collaboration: CampaignCollaboration }) {
  const { t } = useTranslation();
  const euros = useFormatEuros();
  const complete = useCompleteCollaboration();
  const [open, setOpen] = useState(false);
  // The manage page is the brand's own: the amount is always there.
  const payout = euros(collaboration.agreed_amount ?? 0);
  const missing = missingDeliverables(collaboration);
  return (
    <ConfirmPopup
      open={open}
      onOpenChange={setOpen}
      pending={complete.isPending}
      trigger={
        <Button size="sm" variant="secondary" data-testid="collaboration-complete">
          <CheckCheck className="size-3.5" aria-hidden />
          {t('campaigns.manage.markComplete')}
        </Button>
      }
      title={t('campaigns.manage.completeTitle')}
      body={
        <>
          {missing.length > 0 && (
            <div
              role="alert"
              className="mb-3 rounded-lg border border-warning/40 bg-warning-soft px-3 py-2 text-sm text-fg"
              data-testid="complete-missing"
            >
              <p className="font-medium">
                {t('campaigns.manage.missingTitle', {
                  done: collaboration.progress.completed,
                  total: collaboration.progress.total,
                })}
              </p>
              <ul className="mt-1 list-disc ps-5 text-xs">
                {missing.map((line) => (
                  <li key={line} dir="auto">
                    {line}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {t('campaigns.manage.completeBody', { name: collaboration.creator_name, amount: payout })}
        </>
      }
      cancelLabel={t('campaigns.cancel')}
      confirmLabel={
        missing.length > 0
          ? t('campaigns.manage.completeAnyway', { amount: payout })
          : t('campaigns.manage.completeConfirm', { amount: payout })
      }
      onConfirm={() =>
        complete.mutate(collaboration.id, {
          onSuccess: (reply) => {
            setOpen(false);
            toast.success(
              reply.paid
                ? t('campaigns.manage.paid', { name: collaboration.creator_name, amount: payout })
                : t('campaigns.manage.alreadyPaid'),
            );
          },
          onError: (error) => toast.error(errorText(error, MESSAGES.generic.internal)),
        })
      }
      testId="complete-confirm"
      confirmTestId="complete-confirm-yes"
      layerClassName="z-50"
    />
  );
}

function Manage({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation();
  const euros = useFormatEuros();
  const labels = useCampaignLabels();
  const navigate = useNavigate();
  const applications = useCampaignApplications(campaign.id);
  const [details, setDetails] = useState(false);
  const list = applications.data ?? [];
  const pending = list.filter((a) => a.status === 'pending');
  const answered = list.filter((a) => a.status !== 'pending');
  return (
    <div className="space-y-6" data-testid="manage-campaign" data-status={campaign.status}>
      <header className="flex flex-col gap-4 rounded-2xl border border-line bg-surface p-4 sm:flex-row sm:p-5">
        <Thumbnail campaign={campaign} className="aspect-[16/9] w-full shrink-0 rounded-xl sm:w-48" />
        <div className="min-w-0 flex-1 space-y-2">
          <div className="flex flex-wrap items-center gap-2">
            <StatusBadge status={campaign.status} />
            <span className="text-xs text-muted">{campaign.platforms.map(labels.platform).join(' · ')}</span>
          </div>
          <h1 dir="auto" className="text-xl font-semibold tracking-tight" data-testid="manage-title">
            {campaign.title}
          </h1>
          <dl className="flex flex-wrap gap-x-5 gap-y-1 text-sm">
            <div className="flex gap-1.5">
              <dt className="text-muted">{t('campaigns.fields.budget')}</dt>
              <dd className="font-semibold tabular-nums">{euros(campaign.budget ?? 0)}</dd>
            </div>
            {campaign.held !== null && (
              <div className="flex gap-1.5">
                <dt className="text-muted">{t('campaigns.fields.held')}</dt>
                <dd className="font-semibold tabular-nums" data-testid="manage-held">
                  {euros(campaign.held)}
                </dd>
              </div>
            )}
          </dl>
          <div className="flex flex-wrap gap-2 pt-1">
            <StatusControls campaign={campaign} onDeleted={() => navigate('/dashboard?view=myCampaigns')} />
            <Button size="sm" variant="ghost" onClick={() => setDetails(true)}>
              {t('campaigns.card.detailsShort')}
            </Button>
          </div>
        </div>
      </header>

      <section data-testid="manage-applications">
        <h2 className="mb-3 text-base font-semibold">
          {t('campaigns.manage.applications')}{' '}
          {pending.length > 0 && (
            <span className="ms-1 rounded-full bg-warning-soft px-2 py-0.5 text-xs text-warning">{pending.length}</span>
          )}
        </h2>
        {applications.isPending ? (
          <Spinner />
        ) : applications.isError ? (
          <LoadFailed
            message={errorText(applications.error, MESSAGES.campaigns.loadFailed)}
            onRetry={() => void applications.refetch()}
          />
        ) : list.length === 0 ? (
          <p
            className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-line-strong px-4 py-8 text-center text-sm text-muted"
            data-testid="applications-none"
          >
            <Inbox className="size-6 text-subtle" aria-hidden />
            {campaign.status === 'open'
              ? t('campaigns.manage.noApplicationsOpen')
              : t('campaigns.manage.noApplications')}
          </p>
        ) : (
          <ul className="grid gap-3 lg:grid-cols-2">
            {[...pending, ...answered].map((a) => (
              <ApplicationItem key={a.id} application={a} />
            ))}
          </ul>
        )}
      </section>

      <section data-testid="manage-collaborations">
        <h2 className="mb-3 text-base font-semibold">{t('campaigns.fields.collaborations')}</h2>
        {campaign.collaborations.length === 0 ? (
          <p className="rounded-xl border border-dashed border-line-strong px-4 py-8 text-center text-sm text-muted">
            {t('campaigns.details.noCollaborations')}
          </p>
        ) : (
          <ul className="grid gap-3 lg:grid-cols-2">
            {campaign.collaborations.map((c) => (
              <CollaborationRow
                key={c.id}
                collaboration={c}
                actions={c.status === 'active' ? <CompleteButton collaboration={c} /> : undefined}
              />
            ))}
          </ul>
        )}
      </section>
      <CampaignDetailsDialog id={details ? campaign.id : null} onClose={() => setDetails(false)} />
    </div>
  );
}

/** /dashboard/campaigns/{id}/manage: the brand's applications, collaborations and status controls. */
export default function ManageCampaignPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const query = useCampaign(id);
  const title = query.data?.title ?? t('campaigns.manage.pageTitle');

  useEffect(() => {
    document.title = `${title} · GenPro Studio`;
  }, [title]);

  return (
    <div className="min-h-dvh">
      <PublicHeader />
      <main className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-8">
        <Link
          to="/dashboard?view=myCampaigns"
          className="mb-4 inline-flex items-center gap-1.5 text-sm text-muted hover:text-fg"
          data-testid="manage-back"
        >
          <ArrowLeft className="size-4 rtl:-scale-x-100" aria-hidden />
          {t('campaigns.mine.open')}
        </Link>
        {query.isPending ? (
          <div className="flex justify-center py-20">
            <Spinner className="size-7" />
          </div>
        ) : query.isError ? (
          <LoadFailed message={campaignLoadError(query.error)} onRetry={() => void query.refetch()} />
        ) : !query.data.is_owner ? (
          <LoadFailed message={errorText(null, MESSAGES.campaigns.brandOnly)} onRetry={() => void query.refetch()} />
        ) : (
          <Manage campaign={query.data} />
        )}
      </main>
    </div>
  );
}
