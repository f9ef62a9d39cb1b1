// The Magic Selector's settings: mode, quality, style strength, prompt, reference, then the error, the price and
// Apply Magic.
import { WandSparkles } from 'lucide-react';
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { MAGIC_SELECTOR } from '../../../common/api/inpaint.constants.ts';
import type { MagicQuality } from '../../../common/api/inpaint.ts';
import { useRefreshAssets } from '../../api/assets.ts';
import { usePrice } from '../../api/engines.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { labelClass, RangeField, SelectField } from '../../ui/controls.tsx';
import { EngineNote } from '../../ui/EngineBadge.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { CreditShortfall, useCreditGuard } from '../billing/CreditShortfall.tsx';
import { DropZone } from './DropZone.tsx';
import type { MaskPainter } from './MaskPainter.ts';
import { needsReference } from './store.ts';
import type { MagicStore } from './useMagicMask.ts';

const MODES = MAGIC_SELECTOR.modes;

export function MagicSettings({
  store,
  painter,
  applyButton,
  onError,
}: {
  store: MagicStore;
  painter: RefObject<MaskPainter | null>;
  applyButton: RefObject<HTMLElement | null>;
  onError: (key: string) => void;
}) {
  const { t } = useTranslation();
  const base = useStore(store, (s) => s.base);
  const reference = useStore(store, (s) => s.reference);
  const mode = useStore(store, (s) => s.mode);
  const quality = useStore(store, (s) => s.quality);
  const styleStrength = useStore(store, (s) => s.styleStrength);
  const prompt = useStore(store, (s) => s.prompt);
  const error = useStore(store, (s) => s.error);
  const busy = useStore(store, (s) => s.busy);
  const { setReference, setMode, setQuality, setStyleStrength, setPrompt } = store.getState();
  const price = usePrice('image', MAGIC_SELECTOR.model, 'inpaint');
  const { balance, shortfall } = useCreditGuard(price);

  const refreshAssets = useRefreshAssets();
  const apply = () => store.getState().apply(() => painter.current?.toDataUrl() ?? null, t);

  return (
    <>
      <fieldset className="space-y-1.5">
        <legend className={labelClass}>{t('magicSelector.mode')}</legend>
        <div className="grid grid-cols-2 gap-1.5">
          {MODES.map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={mode === m}
              onClick={() => setMode(m)}
              data-testid={`magic-mode-${m}`}
              className={cn(
                'rounded-lg border px-2 py-1.5 text-xs',
                mode === m ? 'border-accent bg-accent-soft text-accent' : 'border-line text-muted hover:text-fg',
              )}
            >
              {t(`magicSelector.modes.${m}`)}
            </button>
          ))}
        </div>
      </fieldset>

      {/* The studio's own controls (web/ui), so this tool reads like every other screen. */}
      <SelectField<MagicQuality>
        label={t('magicSelector.quality')}
        value={quality}
        onChange={setQuality}
        options={MAGIC_SELECTOR.qualities.map((q) => ({ value: q, label: t(`magicSelector.qualities.${q}`) }))}
        testId="magic-quality"
      />

      {mode === 'style-transfer' && (
        <RangeField
          label={t('magicSelector.styleStrength')}
          value={styleStrength}
          onChange={setStyleStrength}
          min={0}
          max={100}
          step={1}
          format={(value) => `${value}%`}
          testId="magic-style-strength"
        />
      )}

      <label className="block space-y-1.5">
        <span className={labelClass}>{t('magicSelector.prompt')}</span>
        <textarea
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
          rows={3}
          placeholder={t('magicSelector.promptPlaceholder')}
          className={cn(inputClass, 'min-h-20 resize-y py-2 leading-relaxed')}
          data-testid="magic-prompt"
        />
      </label>

      {needsReference(mode) && (
        <DropZone
          label={t('magicSelector.reference')}
          image={reference}
          testId="magic-reference-input"
          onFile={setReference}
          onError={onError}
        />
      )}

      {error && (
        <p role="alert" className="text-xs text-danger" data-testid="magic-error">
          {error}
        </p>
      )}

      {!busy && shortfall > 0 && (
        <CreditShortfall shortfall={shortfall} balance={balance} compact testId="magic-shortfall" />
      )}
      <EngineNote kind="image" model={MAGIC_SELECTOR.model} credits={price} />
      <Button
        className="w-full"
        disabled={!base || busy || shortfall > 0}
        loading={busy}
        onClick={(event) => {
          applyButton.current = event.currentTarget;
          void apply().then(refreshAssets);
        }}
        data-testid="magic-apply"
      >
        {!busy && <WandSparkles className="size-4" aria-hidden />}
        {busy ? t('magicSelector.applying') : t('magicSelector.apply')}
      </Button>
    </>
  );
}
