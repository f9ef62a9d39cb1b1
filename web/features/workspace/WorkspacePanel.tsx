import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert, Film, FolderKanban, ScanFace, Trash2, X } from 'lucide-react';
import { AlertDialog } from 'radix-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { MESSAGES } from '../../../common/messages.ts';
import {
  clearWorkspace,
  removeFromWorkspace,
  useWorkspace,
  type WorkspaceItem,
  workspaceKey,
} from '../../api/workspace.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { personasKey } from '../personas/api.ts';
import { personaMessage } from '../personas/messages.ts';

function Thumb({ item }: { item: WorkspaceItem }) {
  const [broken, setBroken] = useState(false);
  const src = item.assetType === 'persona' ? item.persona?.avatar : item.asset?.thumbnail_url;
  const Icon = item.assetType === 'persona' ? ScanFace : Film;
  return (
    <span className="relative grid size-14 shrink-0 place-items-center overflow-hidden rounded-lg border border-line bg-surface-3 text-subtle">
      {src && !broken ? (
        <img src={src} alt="" loading="lazy" onError={() => setBroken(true)} className="size-full object-cover" />
      ) : item.assetType === 'video' && item.asset?.url && !broken ? (
        <video
          src={`${item.asset.url}#t=0.1`}
          muted
          preload="metadata"
          onError={() => setBroken(true)}
          className="size-full object-cover"
        />
      ) : (
        <Icon className="size-6" aria-hidden />
      )}
      {item.assetType === 'video' && (
        <span className="absolute bottom-0.5 end-0.5 grid size-4 place-items-center rounded bg-black/70 text-white">
          <Film className="size-2.5" aria-hidden />
        </span>
      )}
    </span>
  );
}

function itemTitle(item: WorkspaceItem, fallback: string): string {
  if (item.assetType === 'persona') return item.persona?.name ?? fallback;
  return item.asset?.prompt?.trim() || fallback;
}

/** The Campaign Workspace of the Campaigns tab (spec 2.2): personas and videos put aside for campaigns. */
export function WorkspacePanel() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data, error, isPending, refetch } = useWorkspace();
  const [removing, setRemoving] = useState<string | null>(null);
  const [clearing, setClearing] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const items = data ?? [];

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: workspaceKey });
    void queryClient.invalidateQueries({ queryKey: personasKey });
  };

  async function remove(item: WorkspaceItem) {
    setRemoving(item.assetId);
    setFailure(null);
    try {
      await removeFromWorkspace(item.assetId);
      queryClient.setQueryData<WorkspaceItem[]>(workspaceKey, (list) => list?.filter((x) => x.id !== item.id));
      refresh();
    } catch {
      setFailure(MESSAGES.personas.workspaceRemoveFailed);
    } finally {
      setRemoving(null);
    }
  }

  async function clearAll() {
    setClearing(true);
    setFailure(null);
    try {
      await clearWorkspace();
      queryClient.setQueryData<WorkspaceItem[]>(workspaceKey, []);
      refresh();
      setConfirmOpen(false);
      toast.success(personaMessage(MESSAGES.personas.workspaceCleared));
    } catch {
      setConfirmOpen(false);
      setFailure(MESSAGES.personas.workspaceClearFailed);
    } finally {
      setClearing(false);
    }
  }

  return (
    <section
      aria-labelledby="workspace-title"
      data-testid="workspace-panel"
      className="rounded-2xl border border-line bg-surface p-4 sm:p-5"
    >
      <div className="flex flex-wrap items-start gap-3">
        <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent">
          <FolderKanban className="size-5" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <h2 id="workspace-title" className="text-sm font-semibold">
            {t('workspace.title')}
            {items.length > 0 && (
              <span className="ms-2 rounded-full bg-surface-3 px-2 py-0.5 text-xs font-medium text-muted">
                {items.length}
              </span>
            )}
          </h2>
          <p className="mt-0.5 text-xs text-muted">{t('workspace.description')}</p>
        </div>
        {items.length > 0 && (
          <AlertDialog.Root open={confirmOpen} onOpenChange={setConfirmOpen}>
            <AlertDialog.Trigger className={buttonClass('ghost', 'sm')} data-testid="workspace-clear">
              <Trash2 className="size-4" aria-hidden />
              {t('workspace.clear')}
            </AlertDialog.Trigger>
            <AlertDialog.Portal>
              <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/60 backdrop-blur-[2px]" />
              <AlertDialog.Content
                data-testid="workspace-clear-dialog"
                className="fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-sm -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-line bg-surface p-5 shadow-2xl"
              >
                <AlertDialog.Title className="text-base font-semibold">{t('workspace.clearTitle')}</AlertDialog.Title>
                <AlertDialog.Description className="mt-2 text-sm text-muted">
                  {t('workspace.clearBody', { count: items.length })}
                </AlertDialog.Description>
                <div className="mt-5 flex justify-end gap-2">
                  <AlertDialog.Cancel className={buttonClass('secondary', 'md')}>
                    {t('workspace.cancel')}
                  </AlertDialog.Cancel>
                  <Button
                    variant="danger"
                    loading={clearing}
                    onClick={() => void clearAll()}
                    data-testid="workspace-clear-confirm"
                  >
                    {t('workspace.clearConfirm')}
                  </Button>
                </div>
              </AlertDialog.Content>
            </AlertDialog.Portal>
          </AlertDialog.Root>
        )}
      </div>

      {failure && (
        <p
          role="alert"
          data-testid="workspace-error"
          className="mt-3 flex items-center gap-2 rounded-lg border border-danger/30 bg-danger-soft px-3 py-2 text-sm text-danger"
        >
          <CircleAlert className="size-4 shrink-0" aria-hidden />
          <span className="flex-1">{personaMessage(failure)}</span>
          <button
            type="button"
            onClick={() => setFailure(null)}
            aria-label={t('common.close')}
            className="grid size-6 place-items-center rounded-md hover:bg-danger/10"
          >
            <X className="size-3.5" aria-hidden />
          </button>
        </p>
      )}

      <div className="mt-4">
        {isPending ? (
          <div className="flex justify-center py-8" data-testid="workspace-loading">
            <Spinner className="size-6" />
          </div>
        ) : error ? (
          <div role="alert" className="flex flex-col items-center gap-3 py-6 text-center">
            <p className="text-sm text-danger">{personaMessage(error.message)}</p>
            <Button variant="secondary" size="sm" onClick={() => void refetch()}>
              {t('common.retry')}
            </Button>
          </div>
        ) : items.length === 0 ? (
          <p
            data-testid="workspace-empty"
            className="rounded-xl border border-dashed border-line-strong px-4 py-8 text-center text-sm text-muted"
          >
            {t('workspace.empty')}
          </p>
        ) : (
          <ul className="grid gap-2 sm:grid-cols-2" data-testid="workspace-items">
            {items.map((item) => {
              const title = itemTitle(item, t(`workspace.types.${item.assetType}`));
              return (
                <li
                  key={item.id}
                  data-testid="workspace-item"
                  data-type={item.assetType}
                  data-asset-id={item.assetId}
                  className="flex items-center gap-3 rounded-xl border border-line bg-surface-2/50 p-2"
                >
                  <Thumb item={item} />
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-medium text-fg">{title}</p>
                    <p className="text-xs text-muted">{t(`workspace.types.${item.assetType}`)}</p>
                  </div>
                  <button
                    type="button"
                    onClick={() => void remove(item)}
                    disabled={removing === item.assetId}
                    aria-label={t('workspace.remove', { name: title })}
                    data-testid="workspace-remove"
                    className="grid size-8 shrink-0 place-items-center rounded-lg text-muted hover:bg-surface-3 hover:text-danger focus-visible:outline-2 focus-visible:outline-accent disabled:opacity-50"
                  >
                    {removing === item.assetId ? (
                      <Spinner className="size-4" />
                    ) : (
                      <Trash2 className="size-4" aria-hidden />
                    )}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}
