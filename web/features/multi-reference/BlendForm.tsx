// The Multi-Reference tool's side: the prompt and blend settings, then the errors, the price and Generate.
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { MULTI_REFERENCE } from '../../../common/api/multi-reference.constants.ts';
import { useRefreshAssets } from '../../api/assets.ts';
import { translateMessage } from '../../i18n/index.ts';
import { disabledButtonClass } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { labelClass, SwitchField } from '../../ui/controls.tsx';
import { EngineNote } from '../../ui/EngineBadge.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { CreditShortfall } from '../billing/CreditShortfall.tsx';
import { fieldClass, optionSelect, rangeSlider } from './fields.tsx';
import type { createMultiReferenceStore } from './store.ts';

type Store = ReturnType<typeof createMultiReferenceStore>;

export function BlendForm({ store }: { store: Store }) {
  const { t } = useTranslation();
  const {
    mode,
    prompt,
    styleModifier,
    negativePrompt,
    blendMode,
    strength,
    variations,
    aspectRatio,
    quality,
    compositionMode,
    preserveDetails,
    setPrompt,
    setStyleModifier,
    setNegativePrompt,
    setBlendMode,
    setStrength,
    setVariations,
    setAspectRatio,
    setQuality,
    setCompositionMode,
    setPreserveDetails,
  } = useStore(store);
  return (
    <>
      <label className="block space-y-1">
        <span className={labelClass}>{t('multiReference.prompt')}</span>
        <textarea
          data-testid="mr-prompt"
          className={cn(inputClass, 'min-h-20 resize-y py-2 leading-relaxed')}
          rows={3}
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
        />
      </label>
      <label className="block space-y-1">
        <span className={labelClass}>{t('multiReference.styleModifier')}</span>
        <input className={fieldClass} value={styleModifier} onChange={(e) => setStyleModifier(e.target.value)} />
      </label>
      <label className="block space-y-1">
        <span className={labelClass}>{t('multiReference.negativePrompt')}</span>
        <input className={fieldClass} value={negativePrompt} onChange={(e) => setNegativePrompt(e.target.value)} />
      </label>

      <fieldset className="space-y-3 rounded-xl border border-line p-3">
        <legend className={cn(labelClass, 'px-1')}>{t('multiReference.blendSettings')}</legend>
        {mode === 'image' &&
          optionSelect(
            t,
            blendMode,
            MULTI_REFERENCE.blendModes,
            setBlendMode,
            t('multiReference.blendMode'),
            'mr-blend-mode',
          )}
        {rangeSlider(t('multiReference.strength'), 'mr-strength', MULTI_REFERENCE.strength, strength, setStrength)}
        <label className="block space-y-1">
          <span className={labelClass}>{t('multiReference.variations')}</span>
          <input
            type="number"
            data-testid="mr-variations"
            className={fieldClass}
            min={MULTI_REFERENCE.variations.min}
            max={MULTI_REFERENCE.variations.max}
            value={variations}
            onChange={(e) =>
              setVariations(
                Math.min(
                  MULTI_REFERENCE.variations.max,
                  Math.max(MULTI_REFERENCE.variations.min, Math.round(Number(e.target.value) || 1)),
                ),
              )
            }
          />
        </label>
        {optionSelect(
          t,
          aspectRatio,
          MULTI_REFERENCE.aspectRatios,
          setAspectRatio,
          t('multiReference.aspectRatio'),
          'mr-aspect',
        )}
        {optionSelect(t, quality, MULTI_REFERENCE.qualities, setQuality, t('multiReference.quality'), 'mr-quality')}
        {mode === 'image' && (
          <>
            {optionSelect(
              t,
              compositionMode,
              MULTI_REFERENCE.compositionModes,
              setCompositionMode,
              t('multiReference.compositionMode'),
            )}
            <SwitchField
              label={t('multiReference.preserveDetails')}
              checked={preserveDetails}
              onChange={setPreserveDetails}
              testId="mr-preserve-details"
            />
          </>
        )}
      </fieldset>
    </>
  );
}

export function GenerateActions({
  store,
  balance,
  shortfall,
  pricePerImage,
  pricePerVideo,
}: {
  store: Store;
  balance: number | null;
  shortfall: number;
  pricePerImage: number;
  pricePerVideo: number;
}) {
  const { t } = useTranslation();
  const refreshAssets = useRefreshAssets();
  const { mode, variations, busy, uploading, progress, errors, generate, clearAll } = useStore(store);
  return (
    <>
      {errors.length > 0 && (
        <ul role="alert" className="space-y-1 rounded-lg bg-danger/10 p-2 text-xs text-danger">
          {errors.map((e) => (
            <li key={e}>{translateMessage(e)}</li>
          ))}
        </ul>
      )}

      {!busy && shortfall > 0 && (
        <CreditShortfall shortfall={shortfall} balance={balance} compact testId="mr-shortfall" />
      )}
      {mode === 'video-to-video' ? (
        <EngineNote kind="video" model={MULTI_REFERENCE.videoToVideo.model} credits={pricePerVideo * variations} />
      ) : (
        <EngineNote kind="image" model={MULTI_REFERENCE.model} credits={pricePerImage * variations} />
      )}
      <div className="flex gap-2">
        <button
          type="button"
          data-testid="mr-generate"
          disabled={busy || uploading || shortfall > 0}
          onClick={() => void generate().then(refreshAssets)}
          className={cn(
            'flex-1 rounded-lg bg-accent px-3 py-2 text-xs font-semibold text-accent-fg hover:bg-accent-strong',
            disabledButtonClass,
          )}
        >
          {busy
            ? `${t('multiReference.generating')}${progress === null ? '' : ` ${progress}%`}`
            : t('multiReference.generate')}
        </button>
        <button
          type="button"
          onClick={clearAll}
          disabled={busy}
          className={cn('rounded-lg border border-line px-3 py-2 text-xs hover:bg-surface-2', disabledButtonClass)}
        >
          {t('multiReference.clearAll')}
        </button>
      </div>
    </>
  );
}
