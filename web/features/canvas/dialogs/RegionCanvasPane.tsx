// The region edit modal's left column: the style prompt, the canvas regions are drawn on, and the colour legend.
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { cn } from '../../../ui/cn.ts';
import { inputClass } from '../../../ui/Field.tsx';
import type { CanvasImage } from '../store.ts';
import type { RegionSelector } from './RegionSelector.ts';
import { REGION_COLOURS } from './rules.ts';
import type { RegionEditStore, useRegionCanvas } from './useRegionCanvas.ts';

export function RegionCanvasPane({
  store,
  selector,
  canvas,
  image,
}: {
  store: RegionEditStore;
  selector: RegionSelector;
  canvas: ReturnType<typeof useRegionCanvas>;
  image: CanvasImage | undefined;
}) {
  const { t } = useTranslation();
  const loaded = useStore(store, (s) => s.loaded);
  const loadError = useStore(store, (s) => s.loadError);
  const stylePrompt = useStore(store, (s) => s.stylePrompt);
  const { setDropTarget, setStylePrompt } = store.getState();
  const { canvasRef, draw, onPointerDown, onPointerMove, onPointerUp, onDragOver, onDrop } = canvas;
  return (
    <div className="flex min-w-0 flex-1 flex-col items-center gap-3">
      <label className="block w-full space-y-1.5 text-sm">
        <span className="font-medium">{t('canvasDialogs.region.stylePrompt')}</span>
        <input
          className={cn(inputClass, 'h-10')}
          value={stylePrompt}
          onChange={(e) => setStylePrompt(e.target.value)}
          placeholder={t('canvasDialogs.region.stylePlaceholder')}
          data-testid="region-style-prompt"
        />
      </label>
      {loaded ? (
        <canvas
          ref={canvasRef}
          data-testid="region-canvas"
          width={loaded.display.width}
          height={loaded.display.height}
          className="max-w-full touch-none cursor-crosshair rounded-lg border border-line"
          style={{
            width: loaded.display.width,
            aspectRatio: `${loaded.display.width} / ${loaded.display.height}`,
          }}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={() => {
            selector.cancel();
            draw();
          }}
          onDragOver={onDragOver}
          onDragLeave={() => setDropTarget(null)}
          onDrop={onDrop}
        />
      ) : (
        <div
          data-testid="region-canvas"
          className="grid h-64 w-full max-w-[800px] place-items-center rounded-lg border border-dashed border-line text-sm text-muted"
        >
          {loadError || !image ? t('canvasDialogs.region.loadFailed') : t('common.loading')}
        </div>
      )}
      <ul className="flex flex-wrap gap-3 text-xs text-muted">
        {(['active', 'dropTarget', 'hasImage', 'idle'] as const).map((look) => (
          <li key={look} className="flex items-center gap-1.5">
            <span className="size-3 rounded-sm" style={{ background: REGION_COLOURS[look] }} aria-hidden />
            {t(`canvasDialogs.region.legend.${look}`)}
          </li>
        ))}
      </ul>
    </div>
  );
}
