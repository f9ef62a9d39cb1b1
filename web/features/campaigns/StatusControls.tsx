import { CheckCheck, Ellipsis, Info, Play, Rocket, Trash2 } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { CampaignStatus } from '../../../common/api/campaigns.constants.ts';
import type { Campaign } from '../../../common/api/campaigns.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { isEditable, nextStatuses } from '../../../common/rules/campaigns.ts';
import { useFormatEuros } from '../../i18n/format.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { ConfirmPopup } from '../../ui/ConfirmPopup.tsx';
import { cn } from '../../ui/cn.ts';
import { useDir } from '../../ui/controls.tsx';
import { useDeleteCampaign, useUpdateCampaign } from './api.ts';
import { campaignMessage, errorText } from './messages.ts';

const ICONS = { open: Rocket, running: Play, completed: CheckCheck, draft: Rocket } as const;

type Action = CampaignStatus | 'delete';

/** The status changes of a campaign and Delete (drafts), each run after its confirmation. */
function useCampaignActions(campaign: Campaign, onDeleted?: () => void) {
  const { t } = useTranslation();
  const update = useUpdateCampaign(campaign.id);
  const remove = useDeleteCampaign();
  const [pending, setPending] = useState<Action | null>(null);
  const [open, setOpen] = useState<Action | null>(null);

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

  return {
    targets: nextStatuses(campaign.status),
    canDelete: isEditable(campaign.status),
    pending,
    open,
    setOpen,
    move,
    destroy,
  };
}

type CampaignActions = ReturnType<typeof useCampaignActions>;

/** The confirmations of the actions; with `triggers`, each opened by its own button. */
function Confirmations({
  campaign,
  actions,
  triggers,
}: {
  campaign: Campaign;
  actions: CampaignActions;
  triggers?: (action: Action) => ReactNode;
}) {
  const { t } = useTranslation();
  const euros = useFormatEuros();
  const { targets, canDelete, pending, open, setOpen, move, destroy } = actions;
  return (
    <>
      {targets.map((to) => (
        <ConfirmPopup
          key={to}
          open={open === to}
          onOpenChange={(next) => setOpen(next ? to : null)}
          pending={pending === to}
          trigger={triggers?.(to)}
          title={t(`campaigns.transitions.confirmTitle.${to}`)}
          body={t(`campaigns.transitions.confirmBody.${to}`, {
            budget: euros(campaign.budget ?? 0),
            held: euros(campaign.held ?? 0),
          })}
          cancelLabel={t('campaigns.cancel')}
          confirmLabel={t(`campaigns.transitions.action.${to}`)}
          onConfirm={() => move(to)}
          testId={`status-confirm-${to}`}
          confirmTestId={`status-confirm-${to}-yes`}
          layerClassName="z-50"
        />
      ))}
      {canDelete && (
        <ConfirmPopup
          open={open === 'delete'}
          onOpenChange={(next) => setOpen(next ? 'delete' : null)}
          pending={pending === 'delete'}
          trigger={triggers?.('delete')}
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
    </>
  );
}

/**
 * The status changes a brand controls (draft → open holds the budget; open → running; → completed releases
 * what is still held), each behind a confirmation, and Delete for drafts: as buttons, on the manage page.
 */
export function StatusControls({ campaign, onDeleted }: { campaign: Campaign; onDeleted?: () => void }) {
  const { t } = useTranslation();
  const actions = useCampaignActions(campaign, onDeleted);
  return (
    <div className="flex flex-wrap gap-1.5" data-testid="status-controls">
      <Confirmations
        campaign={campaign}
        actions={actions}
        triggers={(action) => {
          if (action === 'delete') {
            return (
              <Button size="sm" variant="ghost" data-testid="campaign-delete">
                <Trash2 className="size-3.5" aria-hidden />
                {t('campaigns.transitions.delete')}
              </Button>
            );
          }
          const Icon = ICONS[action];
          return (
            <Button
              size="sm"
              variant={action === 'completed' ? 'secondary' : 'primary'}
              data-testid={`status-to-${action}`}
            >
              <Icon className="size-3.5" aria-hidden />
              {t(`campaigns.transitions.action.${action}`)}
            </Button>
          );
        }}
      />
    </div>
  );
}

const itemClass = cn(
  'flex cursor-pointer select-none items-center gap-2 rounded-lg px-2.5 py-2 text-sm outline-none',
  'data-[highlighted]:bg-surface-2 data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50',
);

/**
 * A campaign card's secondary actions in one menu (Details, the status changes, Delete), so that the card shows
 * a single primary action beside it.
 */
export function CampaignActionsMenu({ campaign, onDetails }: { campaign: Campaign; onDetails: () => void }) {
  const { t } = useTranslation();
  const dir = useDir();
  const actions = useCampaignActions(campaign);
  return (
    <>
      <DropdownMenu.Root dir={dir} modal={false}>
        <DropdownMenu.Trigger
          className={buttonClass('secondary', 'sm', 'w-8 px-0')}
          aria-label={t('campaigns.card.moreActions', { title: campaign.title })}
          data-testid="campaign-more"
        >
          <Ellipsis className="size-5" aria-hidden />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={6}
            collisionPadding={8}
            data-testid="campaign-menu"
            className="z-40 min-w-48 rounded-xl border border-line bg-surface p-1 shadow-xl"
          >
            <DropdownMenu.Item
              className={cn(itemClass, 'text-fg')}
              onSelect={onDetails}
              data-testid="campaign-menu-details"
            >
              <Info className="size-4 text-muted" aria-hidden />
              {t('campaigns.card.detailsShort')}
            </DropdownMenu.Item>
            {actions.targets.length > 0 && <DropdownMenu.Separator className="my-1 h-px bg-line" />}
            {actions.targets.map((to) => {
              const Icon = ICONS[to];
              return (
                <DropdownMenu.Item
                  key={to}
                  className={cn(itemClass, 'text-fg')}
                  onSelect={() => actions.setOpen(to)}
                  data-testid={`status-to-${to}`}
                >
                  <Icon className="size-4 text-muted" aria-hidden />
                  {t(`campaigns.transitions.action.${to}`)}
                </DropdownMenu.Item>
              );
            })}
            {actions.canDelete && (
              <>
                <DropdownMenu.Separator className="my-1 h-px bg-line" />
                <DropdownMenu.Item
                  className={cn(itemClass, 'text-danger')}
                  onSelect={() => actions.setOpen('delete')}
                  data-testid="campaign-delete"
                >
                  <Trash2 className="size-4" aria-hidden />
                  {t('campaigns.transitions.delete')}
                </DropdownMenu.Item>
              </>
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <Confirmations campaign={campaign} actions={actions} />
    </>
  );
}
