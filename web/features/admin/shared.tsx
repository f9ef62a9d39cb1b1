import { Check, Mail, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { MESSAGES } from '../../../common/messages.ts';
import { marketMessage } from '../../i18n/market-messages.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmPopup } from '../../ui/ConfirmPopup.tsx';
import { cn } from '../../ui/cn.ts';
import { useDeleteUser } from './api.ts';
import { deleteError } from './errors.ts';

/** A fact on an admin card: a label and its value (nothing shown when the value is unknown). */
export function Fact({ label, value, testId }: { label: string; value: string | null; testId?: string }) {
  if (value === null) return null;
  return (
    <div className="min-w-0">
      <dt className="text-xs text-subtle">{label}</dt>
      <dd className="truncate text-xs font-medium text-fg" data-testid={testId}>
        <bdi>{value}</bdi>
      </dd>
    </div>
  );
}

/**
 * Delete a user for good, after a confirmation stating that the deletion is permanent and removes the
 * user's AI assets, campaigns and profiles (spec 5).
 */
export function DeleteUserButton({
  userId,
  name,
  onError,
}: {
  userId: string;
  name: string;
  onError: (message: string | null) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const remove = useDeleteUser();
  return (
    <ConfirmPopup
      open={open}
      onOpenChange={(next) => {
        if (!remove.isPending) setOpen(next);
      }}
      pending={remove.isPending}
      trigger={
        <Button variant="ghost" size="sm" className="text-danger hover:text-danger" data-testid="admin-delete">
          <Trash2 className="size-4" aria-hidden />
          {t('admin.delete')}
        </Button>
      }
      title={t('admin.deleteTitle', { name })}
      body={marketMessage(MESSAGES.admin.deleteConfirm)}
      cancelLabel={t('admin.cancel')}
      confirmLabel={t('admin.deleteConfirm')}
      testId="admin-delete-dialog"
      confirmTestId="admin-delete-confirm"
      layerClassName="z-50"
      onConfirm={() => {
        onError(null);
        remove.mutate(
          { userId },
          {
            onSuccess: (reply) => {
              setOpen(false);
              toast.success(marketMessage(reply.message || MESSAGES.admin.userDeleted));
            },
            onError: (error) => {
              setOpen(false);
              onError(deleteError(error));
            },
          },
        );
      }}
    />
  );
}

/** The error of the last action on a card. */
export function CardError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" data-testid="admin-card-error" className="rounded-lg bg-danger-soft px-3 py-2 text-xs text-danger">
      {message}
    </p>
  );
}

type DecisionAction = 'approve' | 'reject';

/** Approve and Reject of a pending account; `pending` is the action running, if any. */
export function DecisionButtons({
  busy,
  pending,
  onDecide,
  approveDisabled,
  approveDescribedBy,
  className,
}: {
  busy: boolean;
  pending: DecisionAction | undefined;
  onDecide: (action: DecisionAction) => void;
  approveDisabled?: boolean;
  approveDescribedBy?: string;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="flex gap-2">
      <Button
        size="sm"
        className={cn('flex-1 sm:flex-none', className)}
        disabled={approveDisabled || busy}
        loading={pending === 'approve'}
        onClick={() => onDecide('approve')}
        aria-describedby={approveDescribedBy}
        data-testid="admin-approve"
      >
        <Check className="size-4" aria-hidden />
        {t('admin.approve')}
      </Button>
      <Button
        size="sm"
        variant="secondary"
        className={cn('flex-1 sm:flex-none', className)}
        disabled={busy}
        loading={pending === 'reject'}
        onClick={() => onDecide('reject')}
        data-testid="admin-reject"
      >
        <X className="size-4" aria-hidden />
        {t('admin.reject')}
      </Button>
    </div>
  );
}

/** The account's e-mail under its name on an admin card. */
export function CardEmail({ email }: { email: string | null | undefined }) {
  if (!email) return null;
  return (
    <p className="mt-0.5 flex items-center gap-1 text-xs text-muted">
      <Mail className="size-3.5 shrink-0" aria-hidden />
      <span dir="ltr" className="min-w-0 truncate" data-testid="admin-email">
        {email}
      </span>
    </p>
  );
}
