// Video enhance dialog (canvas spec 2, 5, 9): category, model and variant from GET /api/topaz/models, scale,
// frame rate and quality (with its denoise/sharpen/enhance mapping); priced by the engine serving it (vendor 50
// credits). Start hands the settings to
// POST /api/topaz/enhance and the run is followed in the background (enhance.ts).
import { useQuery } from '@tanstack/react-query';
import { Wand2 } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  VIDEO_ENHANCE,
  type VideoEnhanceCategory,
  type VideoEnhanceQuality,
} from '../../../../common/api/uploads.constants.ts';
import type { VideoModel } from '../../../../common/api/upscale.ts';
import { usePrice } from '../../../api/engines.ts';
import { Button } from '../../../ui/Button.tsx';
import { cn } from '../../../ui/cn.ts';
import { DialogShell } from '../../../ui/DialogShell.tsx';
import { EngineNote } from '../../../ui/EngineBadge.tsx';
import { inputClass } from '../../../ui/Field.tsx';
import { CreditShortfall, useCreditGuard } from '../../billing/CreditShortfall.tsx';
import { topazModels } from './api.ts';
import { startVideoEnhancement } from './enhance.ts';
import { qualityPresetText, videoEnhanceError } from './rules.ts';

export interface VideoEnhanceDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  videoUrl?: string;
  assetId?: string;
  onEnhanced?: (url: string) => void;
}

type Scale = 2 | 3 | 4;
type Fps = 24 | 30 | 60 | 120;

function useTopazModels(enabled: boolean) {
  return useQuery({
    queryKey: ['topaz', 'models'],
    queryFn: ({ signal }) => topazModels(signal),
    enabled,
    staleTime: 5 * 60_000,
    retry: 1,
  });
}

export function VideoEnhanceDialog({ open, onOpenChange, videoUrl, assetId, onEnhanced }: VideoEnhanceDialogProps) {
  const { t } = useTranslation();
  const models = useTopazModels(open);
  const [category, setCategory] = useState<VideoEnhanceCategory>('upscaling');
  const [modelId, setModelId] = useState<string>(VIDEO_ENHANCE.defaultModel);
  const [option, setOption] = useState<string>(VIDEO_ENHANCE.defaultOption);
  const [scale, setScale] = useState<Scale>(2);
  const [fps, setFps] = useState<Fps>(30);
  const [quality, setQuality] = useState<VideoEnhanceQuality>(VIDEO_ENHANCE.defaultQuality);
  const [starting, setStarting] = useState(false);
  const price = usePrice('upscale', VIDEO_ENHANCE.service, 'videoEnhancement');
  const { balance, shortfall } = useCreditGuard(price);

  useEffect(() => {
    if (models.isError) toast.error(t('canvasDialogs.video.modelsFailed'));
  }, [models.isError, t]);

  const inCategory: VideoModel[] = useMemo(
    () => (models.data?.models ?? []).filter((m) => m.category === category),
    [models.data, category],
  );
  const model = inCategory.find((m) => m.id === modelId) ?? null;

  const chooseCategory = (next: VideoEnhanceCategory) => {
    setCategory(next);
    const first = (models.data?.models ?? []).filter((m) => m.category === next);
    const pick = first.find((m) => m.recommended) ?? first[0];
    setModelId(pick?.id ?? '');
    setOption(pick?.options[0]?.id ?? '');
  };
  const chooseModel = (id: string) => {
    setModelId(id);
    setOption(inCategory.find((m) => m.id === id)?.options[0]?.id ?? '');
  };

  const start = async () => {
    const chosenOption = model?.options.find((o) => o.id === option);
    const error = videoEnhanceError(model?.id, chosenOption?.id);
    if (error || !model || !chosenOption) {
      toast.error(t('canvasDialogs.video.selectModel'));
      return;
    }
    setStarting(true);
    const ok = await startVideoEnhancement(
      {
        videoUrl,
        assetId,
        model: model.id,
        modelName: model.name,
        option: chosenOption.id,
        category,
        scale,
        fps,
        quality,
      },
      onEnhanced,
    );
    setStarting(false);
    if (ok) onOpenChange(false);
  };

  const presetLabels = {
    denoise: t('canvasDialogs.video.denoise'),
    sharpen: t('canvasDialogs.video.sharpen'),
    enhance: t('canvasDialogs.video.enhance'),
  };

  return (
    <DialogShell
      open={open}
      onOpenChange={onOpenChange}
      title={t('canvasDialogs.video.title')}
      description={t('canvasDialogs.video.description')}
      testId="video-enhance-dialog"
    >
      <div className="space-y-4">
        <fieldset className="grid grid-cols-3 gap-2">
          <legend className="sr-only">{t('canvasDialogs.video.category')}</legend>
          {VIDEO_ENHANCE.categories.map((c) => (
            <button
              key={c}
              type="button"
              aria-pressed={c === category}
              data-testid={`video-enhance-category-${c}`}
              onClick={() => chooseCategory(c)}
              className={cn(
                'rounded-lg border px-2 py-2 text-sm',
                c === category ? 'border-accent bg-accent-soft' : 'border-line bg-surface-2 hover:border-line-strong',
              )}
            >
              {t(`canvasDialogs.video.categories.${c}`)}
            </button>
          ))}
        </fieldset>

        <label className="block space-y-1.5 text-sm">
          <span className="font-medium">{t('canvasDialogs.video.model')}</span>
          <select
            className={cn(inputClass, 'h-10')}
            value={model ? model.id : ''}
            onChange={(e) => chooseModel(e.target.value)}
            disabled={models.isLoading}
            data-testid="video-enhance-model"
          >
            <option value="">{models.isLoading ? t('common.loading') : t('canvasDialogs.video.chooseModel')}</option>
            {inCategory.map((m) => (
              <option key={m.id} value={m.id}>
                {m.recommended ? `${m.name} ★` : m.name}
              </option>
            ))}
          </select>
          {model ? <span className="block text-xs text-muted">{model.description}</span> : null}
        </label>

        <label className="block space-y-1.5 text-sm">
          <span className="font-medium">{t('canvasDialogs.video.variant')}</span>
          <select
            className={cn(inputClass, 'h-10')}
            value={model?.options.some((o) => o.id === option) ? option : ''}
            onChange={(e) => setOption(e.target.value)}
            disabled={!model}
            data-testid="video-enhance-option"
          >
            <option value="">{t('canvasDialogs.video.chooseVariant')}</option>
            {(model?.options ?? []).map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
        </label>

        <div className="grid grid-cols-3 gap-3">
          <label className="block space-y-1.5 text-sm">
            <span className="font-medium">{t('canvasDialogs.video.scale')}</span>
            <select
              className={cn(inputClass, 'h-10')}
              value={scale}
              onChange={(e) => setScale(Number(e.target.value) as Scale)}
            >
              {VIDEO_ENHANCE.scales.map((s) => (
                <option key={s} value={s}>{`${s}×`}</option>
              ))}
            </select>
          </label>
          <label className="block space-y-1.5 text-sm">
            <span className="font-medium">{t('canvasDialogs.video.fps')}</span>
            <select
              className={cn(inputClass, 'h-10')}
              value={fps}
              onChange={(e) => setFps(Number(e.target.value) as Fps)}
            >
              {VIDEO_ENHANCE.fps.map((f) => (
                <option key={f} value={f}>
                  {t('canvasDialogs.video.fpsValue', { fps: f })}
                </option>
              ))}
            </select>
          </label>
          <label className="block space-y-1.5 text-sm">
            <span className="font-medium">{t('canvasDialogs.video.quality')}</span>
            <select
              className={cn(inputClass, 'h-10')}
              value={quality}
              onChange={(e) => setQuality(e.target.value as VideoEnhanceQuality)}
            >
              {VIDEO_ENHANCE.qualities.map((q) => (
                <option key={q} value={q}>
                  {t(`canvasDialogs.video.qualities.${q}`)}
                </option>
              ))}
            </select>
          </label>
        </div>
        <p className="text-xs text-muted" data-testid="video-enhance-preset">
          {qualityPresetText(quality, presetLabels)}
        </p>

        <CreditShortfall shortfall={shortfall} balance={balance} testId="video-enhance-shortfall" />
        <div className="flex items-center justify-between gap-2 border-t border-line pt-4">
          <div className="text-sm text-muted">
            <span data-testid="video-enhance-cost">{t('canvasDialogs.video.cost', { credits: price })}</span>
            <EngineNote kind="upscale" model={VIDEO_ENHANCE.service} />
          </div>
          <div className="flex gap-2">
            <Button variant="ghost" onClick={() => onOpenChange(false)}>
              {t('canvasDialogs.cancel')}
            </Button>
            <Button data-testid="video-enhance-start" onClick={start} loading={starting} disabled={shortfall > 0}>
              <Wand2 className="size-4" aria-hidden />
              {t('canvasDialogs.video.start')}
            </Button>
          </div>
        </div>
      </div>
    </DialogShell>
  );
}
