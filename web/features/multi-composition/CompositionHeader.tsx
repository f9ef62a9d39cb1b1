// The multi-composition workspace's title and the ways to add layers: upload, from the canvas, from the assets.
import { FolderOpen, Layers, LayoutGrid, Upload } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { useCanvas } from '../canvas/store.ts';
import { MULTI_COMPOSITION_MAX, roomLeft } from './layers.ts';
import type { createCompositionStore } from './store.ts';

export type CompositionStore = ReturnType<typeof createCompositionStore>;

export function CompositionHeader({
  store,
  onFromCanvas,
  onFromAssets,
}: {
  store: CompositionStore;
  onFromCanvas: () => void;
  onFromAssets: () => void;
}) {
  const { t } = useTranslation();
  const layers = useStore(store, (s) => s.layers);
  const adding = useStore(store, (s) => s.adding);
  const { addFiles } = store.getState();
  const canvasCount = useCanvas((s) => s.images.length);
  const room = roomLeft(layers);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="grid size-9 shrink-0 place-items-center rounded-xl bg-accent-soft text-accent">
        <Layers className="size-[18px]" aria-hidden />
      </span>
      <div className="me-auto min-w-0">
        <h2 id="multi-composition-title" className="text-sm font-semibold">
          {t('multiComposition.title')}
        </h2>
        <p className="text-xs text-muted">{t('multiComposition.description', { max: MULTI_COMPOSITION_MAX })}</p>
      </div>
      <div className="flex flex-wrap items-center gap-1.5" role="toolbar" aria-label={t('multiComposition.addLayers')}>
        <label
          className={cn(
            buttonClass('secondary', 'sm'),
            'cursor-pointer focus-within:outline-2 focus-within:outline-accent',
            (room === 0 || adding) && 'pointer-events-none opacity-50',
          )}
        >
          <Upload className="size-4" aria-hidden />
          {t('multiComposition.upload')}
          <input
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            multiple
            className="sr-only"
            data-testid="mc-upload-input"
            disabled={room === 0 || adding}
            onChange={(e) => {
              void addFiles(e.currentTarget.files);
              e.currentTarget.value = '';
            }}
          />
        </label>
        <Button
          size="sm"
          variant="secondary"
          disabled={room === 0 || adding}
          onClick={onFromCanvas}
          data-testid="mc-from-canvas"
        >
          <LayoutGrid className="size-4" aria-hidden />
          {t('multiComposition.fromCanvas', { count: canvasCount })}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          disabled={room === 0 || adding}
          onClick={onFromAssets}
          data-testid="mc-from-assets"
        >
          <FolderOpen className="size-4" aria-hidden />
          {t('multiComposition.fromAssets')}
        </Button>
      </div>
    </div>
  );
}
