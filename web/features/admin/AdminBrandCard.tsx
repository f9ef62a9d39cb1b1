import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { BrandCard } from '../../../common/api/directory.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { useFormatDate } from '../../i18n/format.ts';
import { marketMessage } from '../../i18n/market-messages.ts';
import { BrandLogo, StatusBadge } from '../../ui/directory-parts.tsx';
import { useApproveBrand } from './api.ts';
import { decisionError } from './errors.ts';
import { CardEmail, CardError, DecisionButtons, DeleteUserButton, Fact } from './shared.tsx';

/** Approve (verify) or reject a pending brand. */
function Decision({ brandId, onError }: { brandId: string; onError: (message: string | null) => void }) {
  const decide = useApproveBrand();
  const pendingAction = decide.isPending ? decide.variables?.action : undefined;
  const run = (action: 'approve' | 'reject') => {
    onError(null);
    decide.mutate(
      { brandId, action },
      {
        onSuccess: (reply) =>
          toast.success(
            marketMessage(
              reply.message || (action === 'approve' ? MESSAGES.admin.brandVerified : MESSAGES.admin.brandRejected),
            ),
          ),
        onError: (error) => onError(decisionError(error, 'brand', action)),
      },
    );
  };
  return <DecisionButtons busy={decide.isPending} pending={pendingAction} onDecide={run} />;
}

/** A brand on the adminBrands view: company, contact, status, profile facts and the admin's actions. */
export function AdminBrandCard({ brand }: { brand: BrandCard }) {
  const { t } = useTranslation();
  const date = useFormatDate();
  const [error, setError] = useState<string | null>(null);
  const name = brand.company_name ?? (brand.owner_name || brand.email || t('directory.brand.unnamed'));
  return (
    <li
      data-testid="admin-brand-card"
      data-id={brand.id}
      data-email={brand.email ?? ''}
      data-status={brand.verification_status}
      className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-4"
    >
      <div className="flex items-start gap-3">
        <BrandLogo brand={brand} className="size-11 text-sm" />
        <div className="min-w-0 flex-1">
          <a
            href={`/brands/${brand.id}`}
            target="_blank"
            rel="noreferrer"
            dir="auto"
            className="block truncate text-sm font-semibold text-fg hover:underline focus-visible:outline-2 focus-visible:outline-accent"
          >
            {name}
          </a>
          <CardEmail email={brand.email} />
        </div>
        <StatusBadge status={brand.verification_status} />
      </div>

      <dl className="grid grid-cols-2 gap-x-3 gap-y-2 sm:grid-cols-4">
        <Fact label={t('admin.industry')} value={brand.industry ?? '—'} />
        <Fact label={t('admin.budget')} value={brand.budget_range ?? '—'} />
        <Fact label={t('admin.activeCampaigns')} value={String(brand.activeCampaigns)} />
        <Fact label={t('admin.profileSince')} value={brand.profile_created_at ? date(brand.profile_created_at) : '—'} />
      </dl>
      {brand.company_description && (
        <p dir="auto" className="line-clamp-2 text-xs leading-relaxed text-muted">
          {brand.company_description}
        </p>
      )}

      <CardError message={error} />
      <div className="mt-auto flex flex-wrap items-center justify-between gap-2 border-t border-line pt-2">
        {brand.verification_status === 'pending' ? <Decision brandId={brand.id} onError={setError} /> : <span />}
        <DeleteUserButton userId={brand.id} name={name} onError={setError} />
      </div>
    </li>
  );
}
