import { LayoutGrid, ListChecks, Send, Trash2, WandSparkles, X } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Asset } from '../../../common/api/assets.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmPopup } from '../../ui/ConfirmPopup.tsx';
import { type UseInTarget, usableFor } from './useIn.ts';

const TARGETS: ReadonlyArray<{ id: UseInTarget; icon: typeof Send }> = [
  { id: 'studio', icon: WandSparkles },
  { id: 'canvas', icon: LayoutGrid },
  { id: 'publish', icon: Send },
];

/**
 * What to do with the selected media: use them in the studio, on the canvas or in a post, or delete them (after a
 * confirmation). Sticks to the bottom of the view, above the phone's tab bar.
 */
export function SelectionBar({
  selected,
  loadedCount,
  onSelectAll,
  onClear,
  onUseIn,
  onDelete,
  deleting,
}: {
  selected: readonly Asset[];
  loadedCount: number;
  onSelectAll: () => void;
  onClear: () => void;
  onUseIn: (target: UseInTarget) => void;
  onDelete: () => Promise<void>;
  deleting: boolean;
}) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const count = selected.length;
  return (
    <section
      aria-label={t('library.selectionBar')}
      data-testid="library-selection-bar"
      className="sticky bottom-20 z-20 flex flex-wrap items-center gap-2 rounded-2xl border border-line-strong bg-surface/95 p-2.5 shadow-xl backdrop-blur-md md:bottom-4"
    >
      <p
        className="flex items-center gap-2 ps-1.5 text-sm font-medium"
        aria-live="polite"
        data-testid="library-selected-count"
      >
        <ListChecks className="size-4 text-accent" aria-hidden />
        {t('library.selected', { count })}
      </p>
      <Button
        variant="ghost"
        size="sm"
        onClick={onSelectAll}
        disabled={count >= loadedCount}
        data-testid="library-select-all"
      >
        {t('library.selectAll')}
      </Button>
      <Button
        variant="ghost"
        size="sm"
        onClick={onClear}
        aria-label={t('library.clearSelection')}
        data-testid="library-clear-selection"
      >
        <X className="size-4" aria-hidden />
        <span className="hidden sm:inline">{t('library.clearSelection')}</span>
      </Button>
      <div className="flex w-full items-center gap-1.5 sm:ms-auto sm:w-auto">
        <fieldset className="flex min-w-0 flex-1 items-center gap-1.5 sm:flex-none">
          <legend className="sr-only">{t('library.useIn')}</legend>
          <span className="hidden text-xs text-muted lg:inline" aria-hidden>
            {t('library.useIn')}
          </span>
          {TARGETS.map(({ id, icon: Icon }) => {
            const usable = usableFor(id, selected).length > 0;
            return (
              <Button
                key={id}
                variant="secondary"
                size="sm"
                disabled={!usable}
                title={usable ? t(`library.targetHints.${id}`) : t(`library.nothingFor.${id}`)}
                onClick={() => onUseIn(id)}
                data-testid={`library-use-${id}`}
                className="min-w-0 flex-1 px-2 sm:flex-none sm:px-3"
              >
                <Icon className="hidden size-4 sm:block" aria-hidden />
                {t(`library.targets.${id}`)}
              </Button>
            );
          })}
        </fieldset>
        <ConfirmPopup
          open={confirming}
          onOpenChange={setConfirming}
          trigger={
            <Button
              variant="danger"
              size="sm"
              data-testid="library-delete"
              aria-label={t('library.delete')}
              className="px-2.5 sm:px-3"
            >
              <Trash2 className="size-4" aria-hidden />
              <span className="hidden sm:inline">{t('library.delete')}</span>
            </Button>
          }
          title={t('library.deleteTitle', { count })}
          body={t('library.deleteBody')}
          cancelLabel={t('library.cancel')}
          confirmLabel={t('library.delete')}
          pending={deleting}
          onConfirm={() => void onDelete().finally(() => setConfirming(false))}
          testId="library-delete-dialog"
          confirmTestId="library-delete-confirm"
          layerClassName="z-50"
        />
      </div>
    </section>
  );
}
