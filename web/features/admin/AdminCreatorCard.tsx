import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { CreatorCard } from '../../../common/api/directory.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { CREATOR_TYPES, type CreatorType, nicheDisplay } from '../../../common/rules/directory.ts';
import { abbreviateCount } from '../../../common/rules/personas.ts';
import { useFormatDate } from '../../i18n/format.ts';
import { marketMessage } from '../../i18n/market-messages.ts';
import { cn } from '../../ui/cn.ts';
import { Avatar, StatusBadge, TagChips, VerifiedBadge } from '../../ui/directory-parts.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { NativeSelect } from '../../ui/Select.tsx';
import { useApproveUser } from './api.ts';
import { decisionError } from './errors.ts';
import { CardEmail, CardError, DecisionButtons, DeleteUserButton, Fact } from './shared.tsx';

/** Approve (with a creator type, required) or reject a pending creator. */
function Decision({ creator, onError }: { creator: CreatorCard; onError: (message: string | null) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [type, setType] = useState<CreatorType | ''>('');
  const decide = useApproveUser();
  const pendingAction = decide.isPending ? decide.variables?.action : undefined;

  const run = (action: 'approve' | 'reject') => {
    onError(null);
    decide.mutate(
      { userId: creator.id, action, creatorType: action === 'approve' ? type : undefined },
      {
        onSuccess: (reply) =>
          toast.success(
            marketMessage(
              reply.message || (action === 'approve' ? MESSAGES.admin.creatorApproved : MESSAGES.admin.creatorRejected),
            ),
          ),
        onError: (error) => onError(decisionError(error, 'user', action)),
      },
    );
  };

  return (
    <div className="space-y-2 rounded-xl border border-line bg-surface-2 p-3">
      <label htmlFor={id} className="text-xs font-medium text-muted">
        {t('admin.creatorType')}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <NativeSelect
          id={id}
          value={type}
          onChange={(value) => setType(value as CreatorType | '')}
          options={[
            { value: '', label: t('admin.chooseType') },
            ...CREATOR_TYPES.map((value) => ({ value, label: t(`admin.creatorTypes.${value}`) })),
          ]}
          testId="admin-creator-type"
          aria-describedby={type ? undefined : `${id}-hint`}
          wrapperClassName="min-w-0 flex-1"
          className={cn(inputClass, 'h-9 appearance-none truncate pe-8')}
          chevronClassName="end-2.5 size-4"
        />
        <DecisionButtons
          busy={decide.isPending}
          pending={pendingAction}
          onDecide={run}
          approveDisabled={!type}
          approveDescribedBy={type ? undefined : `${id}-hint`}
          className="h-9"
        />
      </div>
      {!type && (
        <p id={`${id}-hint`} className="text-xs text-subtle" data-testid="admin-type-hint">
          {marketMessage(MESSAGES.admin.creatorTypeRequired)}
        </p>
      )}
    </div>
  );
}

/** A creator on the adminCreators view: who, status, figures, 2 niches then +N, and the admin's actions. */
export function AdminCreatorCard({ creator }: { creator: CreatorCard }) {
  const { t } = useTranslation();
  const date = useFormatDate();
  const [error, setError] = useState<string | null>(null);
  const niches = nicheDisplay(creator.niches);
  const status = creator.user_status ?? 'pending';
  const followers = creator.stats.totalFollowers;

  return (
    <li
      data-testid="admin-creator-card"
      data-id={creator.id}
      data-email={creator.email ?? ''}
      data-status={status}
      className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-4"
    >
      <div className="flex items-start gap-3">
        <Avatar url={creator.avatar} name={creator.displayName} className="size-11 text-sm" />
        <div className="min-w-0 flex-1">
          <p className="flex items-center gap-1.5">
            <a
              href={`/creators/${creator.id}`}
              target="_blank"
              rel="noreferrer"
              dir="auto"
              className="min-w-0 truncate text-sm font-semibold text-fg hover:underline focus-visible:outline-2 focus-visible:outline-accent"
            >
              {creator.displayName}
            </a>
            {creator.isVerified && <VerifiedBadge />}
          </p>
          <CardEmail email={creator.email} />
        </div>
        <StatusBadge status={status} />
      </div>

      <dl className="grid grid-cols-2 gap-x-3 gap-y-2 sm:grid-cols-4">
        <Fact label={t('admin.joined')} value={date(creator.created_at)} />
        <Fact
          label={t('admin.followers')}
          value={followers === null ? t('directory.card.noAccounts') : abbreviateCount(followers)}
          testId="admin-followers"
        />
        <Fact
          label={t('admin.credits')}
          value={creator.credits === null ? null : abbreviateCount(creator.credits)}
          testId="admin-credits"
        />
        <Fact
          label={t('admin.type')}
          value={creator.creator_type ? t(`admin.creatorTypes.${creator.creator_type}`, creator.creator_type) : '—'}
          testId="admin-type"
        />
      </dl>

      {(niches.shown.length > 0 || creator.location) && (
        <div className="flex flex-wrap items-center gap-2">
          <TagChips shown={niches.shown} rest={niches.more} testId="admin-niches" />
          {creator.location && (
            <span dir="auto" className="truncate text-xs text-muted">
              {creator.location}
            </span>
          )}
        </div>
      )}

      {status === 'pending' && <Decision creator={creator} onError={setError} />}
      <CardError message={error} />
      <div className="mt-auto flex justify-end border-t border-line pt-2">
        <DeleteUserButton userId={creator.id} name={creator.displayName} onError={setError} />
      </div>
    </li>
  );
}
