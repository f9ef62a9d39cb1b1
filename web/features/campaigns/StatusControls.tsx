import { CheckCheck, Play, Rocket, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Campaign } from '../../../common/api/campaigns.ts';
import type { CampaignStatus } from '../../../common/constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { isEditable, nextStatuses } from '../../../common/rules/campaigns.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmPopup } from '../../ui/ConfirmPopup.tsx';
import { useFormatEuros } from '../billing/format.ts';
import { useDeleteCampaign, useUpdateCampaign } from './api.ts';
import { campaignMessage, errorText } from './messages.ts';

const ICONS = { open: Rocket, running: Play, completed: CheckCheck, draft: Rocket } as const;

/**
 * The status changes a brand controls (draft → open holds the budget; open → running; → completed releases
 * what is still held), each behind a confirmation, and Delete for drafts.
 */
export function StatusControls({ campaign, onDeleted }: { campaign: Campaign; onDeleted?: () => void }) {
  const { t } = useTranslation();
  const euros = useFormatEuros();
  const update = useUpdateCampaign(campaign.id);
  const remove = useDeleteCampaign();
  const [pending, setPending] = useState<CampaignStatus | 'delete' | null>(null);
  const [open, setOpen] = useState<CampaignStatus | 'delete' | null>(null);

  const move = (to: CampaignStatus) => {
    setPending(to);
    update.mutate(
      { status: to },
      {
        onSuccess: () => {
          toast.success(t(`campaigns.transitions.done.${to}`));
          setOpen(null);
        },
        onError: (error) => toast.error(errorText(error, MESSAGES.generic.internal)),
        onSettled: () => setPending(null),
      },
    );
  };

  const destroy = () => {
    setPending('delete');
    remove.mutate(campaign.id, {
      onSuccess: () => {
        toast.success(campaignMessage(MESSAGES.campaigns.deleted));
        setOpen(null);
        onDeleted?.();
      },
      onError: (error) => toast.error(errorText(error, MESSAGES.generic.internal)),
      onSettled: () => setPending(null),
    });
  };

  return (
    <div className="flex flex-wrap gap-1.5" data-testid="status-controls">
      {nextStatuses(campaign.status).map((to) => {
        const Icon = ICONS[to];
        return (
          <ConfirmPopup
            key={to}
            open={open === to}
            onOpenChange={(next) => setOpen(next ? to : null)}
            pending={pending === to}
            trigger={
              <Button size="sm" variant={to === 'completed' ? 'secondary' : 'primary'} data-testid={`status-to-${to}`}>
                <Icon className="size-3.5" aria-hidden />
                {t(`campaigns.transitions.action.${to}`)}
              </Button>
            }
            title={t(`campaigns.transitions.confirmTitle.${to}`)}
            body={t(`campaigns.transitions.confirmBody.${to}`, {
              budget: euros(campaign.budget),
              held: euros(campaign.held ?? 0),
            })}
            cancelLabel={t('campaigns.cancel')}
            confirmLabel={t(`campaigns.transitions.action.${to}`)}
            onConfirm={() => move(to)}
            testId={`status-confirm-${to}`}
            confirmTestId={`status-confirm-${to}-yes`}
            layerClassName="z-50"
          />
        );
      })}
      {isEditable(campaign.status) && (
        <ConfirmPopup
          open={open === 'delete'}
          onOpenChange={(next) => setOpen(next ? 'delete' : null)}
          pending={pending === 'delete'}
          trigger={
            <Button size="sm" variant="ghost" data-testid="campaign-delete">
              <Trash2 className="size-3.5" aria-hidden />
              {t('campaigns.transitions.delete')}
            </Button>
          }
          title={t('campaigns.transitions.deleteTitle')}
          body={t('campaigns.transitions.deleteBody', { title: campaign.title })}
          cancelLabel={t('campaigns.cancel')}
          confirmLabel={t('campaigns.transitions.delete')}
          onConfirm={destroy}
          testId="campaign-delete-confirm"
          confirmTestId="campaign-delete-yes"
          layerClassName="z-50"
        />
      )}
    </div>
  );
}
