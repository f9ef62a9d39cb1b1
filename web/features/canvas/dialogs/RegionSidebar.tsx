// The region edit modal's side: the regions, each with its prompt and Generate, then the result with Upscale and
// Download.
import { Download, ImagePlus, Sparkles, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { Button, buttonClass } from '../../../ui/Button.tsx';
import { cn } from '../../../ui/cn.ts';
import { inputClass } from '../../../ui/Field.tsx';
import type { CanvasImage } from '../store.ts';
import { REGION_COLOURS, regionLook } from './rules.ts';
import type { RegionEditStore } from './useRegionCanvas.ts';

/** Same-origin media URLs download through `?download=1` (spec 7 media proxies). */
function downloadHref(url: string): string {
  if (!url.startsWith('/api/')) return url;
  return `${url}${url.includes('?') ? '&' : '?'}download=1`;
}

function RegionResult({ store }: { store: RegionEditStore }) {
  const { t } = useTranslation();
  const result = useStore(store, (s) => s.result);
  const upscaling = useStore(store, (s) => s.upscaling);
  const upscale = () => store.getState().upscale();
  if (!result) return null;
  return (
    <div className="space-y-2 rounded-xl border border-line bg-surface-2 p-3" data-testid="region-result">
      <h3 className="text-sm font-semibold">{t('canvasDialogs.region.result')}</h3>
      <img src={result.url} alt={t('canvasDialogs.region.result')} className="w-full rounded-lg" />
      <div className="flex gap-2">
        <Button
          size="sm"
          variant="secondary"
          className="flex-1"
          data-testid="region-upscale"
          onClick={upscale}
          loading={upscaling}
        >
          {t('canvasDialogs.region.upscale')}
        </Button>
        <a
          href={downloadHref(result.url)}
          download
          data-testid="region-download"
          className={buttonClass('secondary', 'sm', 'flex-1')}
        >
          <Download className="size-4" aria-hidden />
          {t('canvasDialogs.region.download')}
        </a>
      </div>
    </div>
  );
}

export function RegionSidebar({
  store,
  image,
  removeRegion,
}: {
  store: RegionEditStore;
  image: CanvasImage | undefined;
  removeRegion: (id: string) => void;
}) {
  const { t } = useTranslation();
  const regions = useStore(store, (s) => s.regions);
  const activeId = useStore(store, (s) => s.activeId);
  const dropId = useStore(store, (s) => s.dropId);
  const busyId = useStore(store, (s) => s.busyId);
  const { setActive, updateRegion } = store.getState();

  const generate = (regionId: string | null) => store.getState().generate(regionId, image);

  const active = regions.find((r) => r.id === activeId) ?? null;
  return (
    <aside className="flex w-full shrink-0 flex-col gap-3 lg:w-80">
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-semibold">{t('canvasDialogs.region.regions', { count: regions.length })}</h3>
        <Button
          size="sm"
          variant="secondary"
          data-testid="region-generate-active"
          onClick={() => generate(activeId)}
          loading={busyId !== null && busyId === activeId}
          disabled={busyId !== null || (active !== null && !active.prompt.trim())}
        >
          <Sparkles className="size-4" aria-hidden />
          {t('canvasDialogs.region.generateActive')}
        </Button>
      </div>
      {regions.length === 0 ? <p className="text-sm text-muted">{t('canvasDialogs.region.empty')}</p> : null}
      <ol className="space-y-2">
        {regions.map((region, index) => {
          const look = regionLook({ id: region.id, hasImage: Boolean(region.droppedImage) }, activeId, dropId);
          return (
            <li
              key={region.id}
              data-testid="region-item"
              data-active={region.id === activeId || undefined}
              className={cn(
                'space-y-2 rounded-xl border bg-surface-2 p-3',
                region.id === activeId ? 'border-accent' : 'border-line',
              )}
              style={{ borderInlineStartColor: REGION_COLOURS[look], borderInlineStartWidth: 4 }}
            >
              <div className="flex items-center gap-2">
                <button
                  type="button"
                  className="min-w-0 flex-1 truncate text-start text-sm font-medium"
                  onClick={() => setActive(region.id)}
                  aria-pressed={region.id === activeId}
                >
                  {t('canvasDialogs.region.item', { n: index + 1 })}
                  <span className="ms-2 text-xs font-normal text-muted tabular-nums" dir="ltr">
                    {Math.round(region.width)}×{Math.round(region.height)}
                  </span>
                </button>
                <button
                  type="button"
                  data-testid="region-delete"
                  onClick={() => removeRegion(region.id)}
                  aria-label={t('canvasDialogs.region.delete')}
                  className="grid size-7 place-items-center rounded-lg text-muted hover:bg-surface-3 hover:text-danger"
                >
                  <Trash2 className="size-4" aria-hidden />
                </button>
              </div>
              {region.droppedImage ? (
                <p className="flex items-center gap-1.5 truncate text-xs text-muted">
                  <ImagePlus className="size-3.5 shrink-0" aria-hidden />
                  {region.droppedImage.name}
                </p>
              ) : (
                <p className="text-xs text-subtle">{t('canvasDialogs.region.dropHint')}</p>
              )}
              <textarea
                data-testid="region-prompt"
                className={cn(inputClass, 'min-h-16 resize-y py-2')}
                value={region.prompt}
                onFocus={() => setActive(region.id)}
                onChange={(e) => updateRegion(region.id, { prompt: e.target.value })}
                placeholder={t('canvasDialogs.region.promptPlaceholder')}
                aria-label={t('canvasDialogs.region.promptPlaceholder')}
              />
              <Button
                size="sm"
                className="w-full"
                data-testid="region-generate"
                onClick={() => generate(region.id)}
                loading={busyId === region.id}
                disabled={busyId !== null || !region.prompt.trim()}
              >
                <Sparkles className="size-4" aria-hidden />
                {t('canvasDialogs.region.generate')}
              </Button>
            </li>
          );
        })}
      </ol>

      <RegionResult store={store} />
    </aside>
  );
}
