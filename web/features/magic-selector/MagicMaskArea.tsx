// The Magic Selector's base image and the mask painted over it: the base drop zone, the tool bar, the image with its
// mask canvas, and the hint.
import { Brush, Eraser, MousePointer2 } from 'lucide-react';
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { DropZone } from './DropZone.tsx';
import type { MaskPainter } from './MaskPainter.ts';
import type { MagicStore } from './useMagicMask.ts';

export function MagicMaskArea({
  store,
  tab,
  painter,
  maskCanvas,
  clearMask,
  onError,
}: {
  store: MagicStore;
  tab: boolean;
  painter: RefObject<MaskPainter | null>;
  maskCanvas: (canvas: HTMLCanvasElement | null) => void;
  clearMask: () => void;
  onError: (key: string) => void;
}) {
  const { t } = useTranslation();
  const base = useStore(store, (s) => s.base);
  const size = useStore(store, (s) => s.size);
  const sourceId = useStore(store, (s) => s.sourceId);
  const { setBase } = store.getState();
  return (
    <>
      {sourceId ? (
        <p className="text-xs text-muted" data-testid="magic-from-canvas">
          {t('magicCompare.fromCanvas')}
        </p>
      ) : null}
      <DropZone
        label={sourceId ? t('magicCompare.otherBase') : t('magicSelector.baseImage')}
        image={null}
        testId="magic-base-input"
        onFile={(file) => setBase(file)}
        onError={onError}
      />

      {base && (
        <div className="space-y-2">
          <div className="flex gap-1.5" role="toolbar" aria-label={t('magicSelector.tools')}>
            <Button size="sm" variant="ghost" disabled title={t('magicSelector.selectTool')}>
              <MousePointer2 className="size-4" aria-hidden />
            </Button>
            <Button size="sm" variant="secondary" aria-pressed title={t('magicSelector.brush')}>
              <Brush className="size-4" aria-hidden />
            </Button>
            <Button size="sm" variant="ghost" className="ms-auto" onClick={clearMask} data-testid="magic-clear-mask">
              <Eraser className="size-4" aria-hidden />
              {t('magicSelector.clearMask')}
            </Button>
          </div>
          <div className={cn('relative overflow-hidden rounded-xl bg-surface-3', tab && 'mx-auto w-fit max-w-full')}>
            <img
              src={base}
              alt={t('magicSelector.baseImage')}
              data-testid="magic-base-image"
              className={cn('block select-none', tab ? 'h-auto max-h-[62vh] w-auto max-w-full' : 'h-auto w-full')}
              draggable={false}
            />
            {size && (
              <canvas
                ref={maskCanvas}
                width={size.width}
                height={size.height}
                data-testid="magic-mask-canvas"
                aria-label={t('magicSelector.maskHint')}
                className="absolute inset-0 size-full cursor-crosshair touch-none opacity-50 mix-blend-screen"
                onPointerDown={(e) => {
                  e.currentTarget.setPointerCapture(e.pointerId);
                  painter.current?.begin(painter.current.pointAt(e, e.currentTarget.getBoundingClientRect()));
                }}
                onPointerMove={(e) =>
                  painter.current?.extend(painter.current.pointAt(e, e.currentTarget.getBoundingClientRect()))
                }
                onPointerUp={() => painter.current?.end()}
                onPointerLeave={() => painter.current?.end()}
              />
            )}
          </div>
          <p className="text-xs text-muted">{t('magicSelector.maskHint')}</p>
        </div>
      )}
    </>
  );
}
