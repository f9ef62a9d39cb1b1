import { CircleHelp, Hourglass, LifeBuoy, LockKeyhole, UserX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { MESSAGES } from '../../common/messages.ts';
import { translateMessage } from '../i18n/index.ts';
import { buttonClass } from './Button.tsx';
import { cn } from './cn.ts';
import type { ApprovalBanner as BannerKind } from './navigation.ts';

const BANNERS = {
  pending: { icon: Hourglass, message: MESSAGES.approval.pending, tone: 'border-warning/30 bg-warning-soft' },
  regularUser: { icon: UserX, message: MESSAGES.approval.regularUser, tone: 'border-danger/30 bg-danger-soft' },
  unknown: { icon: CircleHelp, message: MESSAGES.approval.unknown, tone: 'border-line-strong bg-surface-2' },
} as const;

/** Creator-approval banner (spec 2.1): pending, not approved (with a support link) or unknown status. */
export function ApprovalBanner({ kind }: { kind: BannerKind }) {
  const { t } = useTranslation();
  const { icon: Icon, message, tone } = BANNERS[kind];
  return (
    <div
      role="status"
      data-testid="approval-banner"
      data-kind={kind}
      className={cn('mb-6 flex flex-col gap-3 rounded-xl border px-4 py-3 sm:flex-row sm:items-center', tone)}
    >
      <div className="flex flex-1 items-start gap-3">
        <Icon
          className={cn(
            'mt-0.5 size-5 shrink-0',
            kind === 'pending' ? 'text-warning' : kind === 'regularUser' ? 'text-danger' : 'text-muted',
          )}
          aria-hidden
        />
        <p className="text-sm leading-relaxed text-fg">{translateMessage(message)}</p>
      </div>
      {kind === 'regularUser' && (
        <Link
          to="/contact"
          className={buttonClass('secondary', 'sm', 'self-start sm:self-auto')}
          data-testid="contact-support-link"
        >
          <LifeBuoy className="size-4" aria-hidden />
          {t('nav.contactSupport')}
        </Link>
      )}
    </div>
  );
}

export function ApprovalGate() {
  const { t } = useTranslation();
  return (
    <div
      data-testid="approval-gate"
      className="mt-8 flex flex-col items-center rounded-2xl border border-dashed border-line-strong bg-surface px-6 py-14 text-center"
    >
      <span className="mb-4 grid size-12 place-items-center rounded-2xl bg-accent-soft text-accent">
        <LockKeyhole className="size-6" aria-hidden />
      </span>
      <h2 className="text-lg font-semibold">{translateMessage(MESSAGES.approval.gateTitle)}</h2>
      <p className="mt-2 max-w-md text-sm leading-relaxed text-muted">{translateMessage(MESSAGES.approval.gateBody)}</p>
      <Link to="/dashboard?view=creators" className={buttonClass('secondary', 'md', 'mt-6')}>
        {t('dashboard.backToWorkspace')}
      </Link>
    </div>
  );
}
