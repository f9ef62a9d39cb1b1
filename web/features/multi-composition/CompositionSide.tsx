// The multi-composition workspace's side: the artboard size, the layers, the prompt with Compose, and the result.
import { Download, ImagePlus, Plus, WandSparkles } from 'lucide-react';
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useStore } from 'zustand';
import { downloadUrl } from '../../../common/rules/studio.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { Segmented } from '../../ui/controls.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { canCompose } from '../canvas/dialogs/rules.ts';
import { useCanvas } from '../canvas/store.ts';
import type { CompositionStore } from './CompositionHeader.tsx';
import { LayerList } from './LayerList.tsx';
import { ARTBOARD_LIMITS, ARTBOARD_PRESETS, clampArtboardSide, MULTI_COMPOSITION_MAX } from './layers.ts';
import { type PresetId, presetOf } from './store.ts';

export function ArtboardSize({ store }: { store: CompositionStore }) {
  const { t } = useTranslation();
  const board = useStore(store, (s) => s.board);
  const custom = useStore(store, (s) => s.custom);
  const { choosePreset, changeBoard } = store.getState();
  const preset: PresetId = custom ? 'custom' : presetOf(board);
  return (
    <div className="space-y-2">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-muted">{t('multiComposition.canvasSize')}</h3>
      <Segmented<PresetId>
        label={t('multiComposition.canvasSize')}
        value={preset}
        onChange={choosePreset}
        options={[
          ...ARTBOARD_PRESETS.map((p) => ({
            value: p.id as PresetId,
            label: `${p.width}×${p.height}`,
            title: t(`multiComposition.presets.${p.id}`),
          })),
          { value: 'custom' as PresetId, label: t('multiComposition.presets.custom') },
        ]}
        testIdPrefix="mc-size"
        layout="grid"
        size="sm"
      />
      {preset === 'custom' && (
        <div className="grid grid-cols-2 gap-2" dir="ltr">
          {(['width', 'height'] as const).map((side) => (
            <label key={side} className="block space-y-1">
              <span className="text-xs font-medium text-muted">{t(`multiComposition.${side}`)}</span>
              <input
                key={board[side]}
                type="number"
                min={ARTBOARD_LIMITS.min}
                max={ARTBOARD_LIMITS.max}
                defaultValue={board[side]}
                data-testid={`mc-custom-${side}`}
                className={cn(inputClass, 'h-8 px-2 text-xs tabular-nums')}
                onBlur={(e) => {
                  const value = clampArtboardSide(Number(e.currentTarget.value));
                  e.currentTarget.value = String(value);
                  if (value !== board[side]) changeBoard({ ...board, [side]: value });
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') e.currentTarget.blur();
                }}
              />
            </label>
          ))}
          <p className="col-span-2 text-xs text-subtle">{t('multiComposition.customHint')}</p>
        </div>
      )}
    </div>
  );
}

export function CompositionLayers({ store }: { store: CompositionStore }) {
  const { t } = useTranslation();
  const layers = useStore(store, (s) => s.layers);
  const selectedId = useStore(store, (s) => s.selectedId);
  const notices = useStore(store, (s) => s.notices);
  const adding = useStore(store, (s) => s.adding);
  const { layerActions } = store.getState();
  return (
    <div className="space-y-2">
      <div className="flex items-center justify-between">
        <h3 className="text-xs font-semibold uppercase tracking-wide text-muted">{t('multiComposition.layers')}</h3>
        <span className="text-xs tabular-nums text-muted" data-testid="mc-layer-count">
          {layers.length}/{MULTI_COMPOSITION_MAX}
        </span>
      </div>
      {adding && (
        <p className="flex items-center gap-2 text-xs text-muted" role="status">
          <Plus className="size-3.5 animate-pulse" aria-hidden />
          {t('multiComposition.adding')}
        </p>
      )}
      <LayerList layers={layers} selectedId={selectedId} actions={layerActions} />
      {notices.length > 0 && (
        <ul role="alert" className="space-y-1 rounded-lg bg-danger/10 p-2 text-xs text-danger" data-testid="mc-notices">
          {notices.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ComposeForm({
  store,
  elapsed,
  compose,
}: {
  store: CompositionStore;
  elapsed: number;
  compose: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const layers = useStore(store, (s) => s.layers);
  const prompt = useStore(store, (s) => s.prompt);
  const adding = useStore(store, (s) => s.adding);
  const busy = useStore(store, (s) => s.busy);
  const error = useStore(store, (s) => s.error);
  const { setPrompt } = store.getState();
  return (
    <div className="space-y-2">
      <label className="block space-y-1.5">
        <span className="text-xs font-semibold uppercase tracking-wide text-muted">{t('multiComposition.prompt')}</span>
        <textarea
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
          rows={4}
          maxLength={3000}
          dir="auto"
          placeholder={t('multiComposition.promptPlaceholder')}
          className={cn(inputClass, 'min-h-24 resize-y py-2 text-sm')}
          data-testid="mc-prompt"
        />
      </label>
      {!canCompose(prompt, layers.length) && <p className="text-xs text-subtle">{t('multiComposition.needs')}</p>}
      <Button
        className="w-full"
        disabled={!canCompose(prompt, layers.length) || adding}
        loading={busy}
        onClick={() => void compose()}
        data-testid="mc-compose"
      >
        {!busy && <WandSparkles className="size-4" aria-hidden />}
        {busy ? t('multiComposition.composing') : t('multiComposition.compose')}
      </Button>
      {busy && (
        <div role="status" className="space-y-1.5" data-testid="mc-progress">
          <div className="h-1.5 overflow-hidden rounded-full bg-surface-3">
            <div className="h-full w-1/3 animate-pulse rounded-full bg-accent" />
          </div>
          <p className="text-xs text-muted">{t('multiComposition.elapsed', { seconds: elapsed })}</p>
        </div>
      )}
      {error && (
        <p role="alert" className="rounded-lg bg-danger/10 p-2 text-xs text-danger" data-testid="mc-error">
          {error}
        </p>
      )}
    </div>
  );
}

export function CompositionResult({
  store,
  resultRef,
}: {
  store: CompositionStore;
  resultRef: RefObject<HTMLElement | null>;
}) {
  const { t } = useTranslation();
  const layers = useStore(store, (s) => s.layers);
  const prompt = useStore(store, (s) => s.prompt);
  const result = useStore(store, (s) => s.result);

  const addResultToCanvas = () => {
    if (!result) return;
    const added = useCanvas.getState().addImage({
      url: result.url,
      thumbnailUrl: null,
      name: t('multiComposition.resultName', { count: layers.length }),
      prompt: prompt.trim() || undefined,
      assetId: result.id ?? undefined,
      naturalWidth: result.width ?? undefined,
      naturalHeight: result.height ?? undefined,
    });
    if (added) toast.success(t('multiComposition.addedToCanvas'));
    else toast.error(t('multiComposition.canvasFull'));
  };

  if (!result) return null;
  return (
    <figure ref={resultRef} className="space-y-2 rounded-xl border border-line p-2" data-testid="mc-result">
      <img
        src={result.url}
        alt={t('multiComposition.result')}
        className="w-full rounded-lg bg-surface-3 object-contain"
        data-testid="mc-result-image"
      />
      <figcaption className="flex flex-wrap gap-2">
        <Button size="sm" variant="secondary" onClick={addResultToCanvas} data-testid="mc-result-canvas">
          <ImagePlus className="size-4" aria-hidden />
          {t('multiComposition.addToCanvas')}
        </Button>
        <a
          href={downloadUrl(result.url)}
          download
          className={buttonClass('secondary', 'sm')}
          data-testid="mc-result-download"
        >
          <Download className="size-4" aria-hidden />
          {t('multiComposition.download')}
        </a>
      </figcaption>
    </figure>
  );
}
