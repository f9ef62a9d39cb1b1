import { Download, Film, ImagePlus, Layers, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useStore } from 'zustand';
import { MULTI_REFERENCE } from '../../../common/api/multi-reference.constants.ts';
import { useRefreshAssets } from '../../api/assets.ts';
import { usePrice } from '../../api/engines.ts';
import { translateMessage } from '../../i18n/index.ts';
import { disabledButtonClass } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { labelClass, RangeField, SelectField, SwitchField } from '../../ui/controls.tsx';
import { EngineBadge, EngineNote } from '../../ui/EngineBadge.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { PreviewNote } from '../../ui/PreviewNote.tsx';
import { ToolPanelLayout } from '../../ui/ToolPanelLayout.tsx';
import { CreditShortfall, useCreditGuard } from '../billing/CreditShortfall.tsx';
import { useCanvas } from '../canvas/store.ts';
import { useSessionParticipant } from '../editor-sessions/registry.ts';
import { imageThumbnail } from '../multi-composition/images.ts';
import { captureMultiReferenceSession, type MultiReferenceResult, parseMultiReferenceSession } from './session.ts';
import { createMultiReferenceStore } from './store.ts';
import { referenceAccept } from './upload-rules.ts';

// The Multi-Reference side tool (canvas spec 2, 5, 7, 9): up to 8 weighted references, blend
// settings, prompt; Generate calls the server once per variation. Two modes: image (a blend into an
// image) and video-to-video (the first video reference restyled by the images; videos mp4, mov, webm,
// avi and images up to 100 MB), whose result is a playable video.

type Result = MultiReferenceResult;

// The studio's own controls and field look (web/ui), so this tool reads like every other screen.
const fieldClass = cn(inputClass, 'h-10');

export function MultiReferencePanel({ onClose, layout = 'panel' }: { onClose?: () => void; layout?: 'panel' | 'tab' }) {
  const { t } = useTranslation();
  const [, setParams] = useSearchParams();
  const addImage = useCanvas((s) => s.addImage);
  const [store] = useState(createMultiReferenceStore);
  const refreshAssets = useRefreshAssets();
  const {
    mode,
    refs,
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
    uploading,
    busy,
    progress,
    errors,
    results,
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
    patchRef,
    removeRef,
    onFiles,
    generate,
    switchMode,
    clearAll,
  } = useStore(store);
  const pricePerImage = usePrice('image', MULTI_REFERENCE.model, 'multiReference');
  const pricePerVideo = usePrice('video', MULTI_REFERENCE.videoToVideo.model, 'videoRunway');
  const { balance, shortfall } = useCreditGuard(
    (mode === 'video-to-video' ? pricePerVideo : pricePerImage) * variations,
  );

  useSessionParticipant('multi-reference', {
    capture: () =>
      captureMultiReferenceSession({
        mode,
        referenceImages: refs.map((r) => ({
          id: r.id,
          url: r.url,
          filename: r.name,
          weight: r.weight,
          type: r.type,
          description: r.description,
          mediaType: r.mediaType,
        })),
        prompt,
        styleModifier,
        negativePrompt,
        blendSettings: { blendMode, strength, variations, aspectRatio, quality, compositionMode, preserveDetails },
        results,
      }) as Record<string, unknown> | null,
    restore: (data) => store.getState().restore(parseMultiReferenceSession(data)),
    thumbnail: () => imageThumbnail(refs[0]?.url ?? results[0]?.url),
  });

  function openInCanvas(result: Result) {
    if (result.mediaType === 'video') return;
    addImage({
      url: result.url,
      thumbnailUrl: null,
      name: `multi-reference-${result.variation}`,
      prompt,
      assetId: result.id ?? undefined,
    });
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('canvas', '1');
      return next;
    });
  }

  const select = <T extends string>(
    value: T,
    options: readonly T[],
    onChange: (v: T) => void,
    label: string,
    testId?: string,
  ) => (
    <SelectField
      label={label}
      value={value}
      onChange={onChange}
      options={options.map((o) => ({ value: o, label: t(`multiReference.options.${o}`, { defaultValue: o }) }))}
      testId={testId}
    />
  );

  const slider = (
    label: string,
    testId: string,
    bounds: { min: number; max: number },
    value: number,
    onChange: (v: number) => void,
  ) => (
    <RangeField
      label={label}
      testId={testId}
      min={bounds.min}
      max={bounds.max}
      step={1}
      value={value}
      format={String}
      onChange={onChange}
    />
  );

  const tab = layout === 'tab';
  const modeSwitch = (
    <fieldset className="flex gap-1 rounded-xl bg-surface-2 p-1">
      <legend className="sr-only">{t('multiReferenceModes.mode')}</legend>
      {(['image', 'video-to-video'] as const).map((m) => (
        <button
          key={m}
          type="button"
          aria-pressed={mode === m}
          data-testid={`mr-mode-${m}`}
          disabled={busy || uploading}
          onClick={() => switchMode(m)}
          className={cn(
            'flex flex-1 items-center justify-center gap-1.5 rounded-lg px-2 py-1.5 text-xs font-medium',
            mode === m ? 'bg-surface text-fg shadow-sm' : 'text-muted hover:text-fg',
          )}
        >
          {m === 'image' ? <ImagePlus className="size-3.5" aria-hidden /> : <Film className="size-3.5" aria-hidden />}
          {t(m === 'image' ? 'multiReferenceModes.image' : 'multiReferenceModes.video')}
        </button>
      ))}
    </fieldset>
  );
  const rules = (
    <p className="text-xs text-muted" data-testid="mr-rules">
      {mode === 'image'
        ? t('multiReferenceModes.rulesImage', { max: MULTI_REFERENCE.maxFiles, mb: MULTI_REFERENCE.imageMaxMb })
        : t('multiReferenceModes.rulesVideo', {
            max: MULTI_REFERENCE.maxFiles,
            mb: MULTI_REFERENCE.videoMaxMb,
            types: MULTI_REFERENCE.videoExtensions.join(', '),
          })}
    </p>
  );
  const uploader = (
    <label
      className={cn(
        'flex cursor-pointer items-center justify-center gap-2 rounded-xl border border-dashed border-line p-3 text-xs text-muted hover:bg-surface-2',
        'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent',
        (refs.length >= MULTI_REFERENCE.maxFiles || uploading) && 'pointer-events-none opacity-50',
      )}
    >
      <ImagePlus className="size-4" aria-hidden />
      {uploading
        ? t('multiReference.uploading')
        : t('multiReference.addReferences', { count: refs.length, max: MULTI_REFERENCE.maxFiles })}
      <input
        type="file"
        accept={referenceAccept(mode)}
        multiple
        className="sr-only"
        data-testid="mr-upload-input"
        disabled={refs.length >= MULTI_REFERENCE.maxFiles || uploading}
        onChange={(e) => {
          void onFiles(e.target.files);
          e.target.value = '';
        }}
      />
    </label>
  );
  const references = (
    <>
      {refs.map((ref) => (
        <div key={ref.id} data-testid="mr-reference" className="space-y-1.5 rounded-xl border border-line p-2">
          <div className="flex items-center gap-2">
            {ref.mediaType === 'video' ? (
              <video
                src={ref.url}
                muted
                preload="metadata"
                aria-label={ref.name}
                className={cn('shrink-0 rounded-md bg-surface-3 object-cover', tab ? 'size-16' : 'size-10')}
              />
            ) : (
              <img
                src={ref.url}
                alt={ref.name}
                className={cn('shrink-0 rounded-md bg-surface-3 object-cover', tab ? 'size-16' : 'size-10')}
              />
            )}
            <span className="min-w-0 flex-1 truncate text-xs">{ref.name}</span>
            <button
              type="button"
              aria-label={t('multiReference.remove')}
              className="grid size-8 shrink-0 place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg"
              onClick={() => removeRef(ref.id)}
            >
              <Trash2 className="size-4" aria-hidden />
            </button>
          </div>
          {slider(t('multiReference.weight'), 'mr-weight', MULTI_REFERENCE.weight, ref.weight, (weight) =>
            patchRef(ref.id, { weight }),
          )}
          {select(
            ref.type,
            MULTI_REFERENCE.referenceTypes,
            (type) => patchRef(ref.id, { type }),
            t('multiReference.type'),
            'mr-type',
          )}
          <input
            className={fieldClass}
            aria-label={t('multiReference.descriptionPlaceholder')}
            placeholder={t('multiReference.descriptionPlaceholder')}
            value={ref.description}
            onChange={(e) => patchRef(ref.id, { description: e.target.value })}
          />
        </div>
      ))}
    </>
  );
  const form = (
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
          select(blendMode, MULTI_REFERENCE.blendModes, setBlendMode, t('multiReference.blendMode'), 'mr-blend-mode')}
        {slider(t('multiReference.strength'), 'mr-strength', MULTI_REFERENCE.strength, strength, setStrength)}
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
        {select(
          aspectRatio,
          MULTI_REFERENCE.aspectRatios,
          setAspectRatio,
          t('multiReference.aspectRatio'),
          'mr-aspect',
        )}
        {select(quality, MULTI_REFERENCE.qualities, setQuality, t('multiReference.quality'), 'mr-quality')}
        {mode === 'image' && (
          <>
            {select(
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
  const actions = (
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
  const resultList = (
    <>
      {results.map((result) => (
        <figure key={result.url} data-testid="mr-result" className="space-y-1.5 rounded-xl border border-line p-2">
          {result.mediaType === 'video' ? (
            // biome-ignore lint/a11y/useMediaCaption: generated video has no captions
            <video
              src={result.url}
              controls
              playsInline
              preload="metadata"
              data-testid="mr-result-video"
              aria-label={t('multiReference.variation', { n: result.variation })}
              className="w-full rounded-md"
            />
          ) : (
            <img
              src={result.url}
              alt={t('multiReference.variation', { n: result.variation })}
              className="w-full rounded-md"
            />
          )}
          <figcaption className="space-y-2 text-xs">
            <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <span className="font-medium">{t('multiReference.variation', { n: result.variation })}</span>
              <EngineBadge engine={result.engine} className="text-muted" />
            </div>
            <div className="flex flex-wrap gap-2">
              {result.mediaType === 'image' && (
                <button
                  type="button"
                  className="min-h-8 rounded-md border border-line px-2 py-1 hover:bg-surface-2"
                  onClick={() => openInCanvas(result)}
                >
                  {t('multiReference.openInCanvas')}
                </button>
              )}
              <a
                href={result.url}
                download={`multi-reference-${result.variation}.${result.mediaType === 'video' ? 'mp4' : 'png'}`}
                className="inline-flex min-h-8 items-center gap-1 rounded-md border border-line px-2 py-1 hover:bg-surface-2"
              >
                <Download className="size-3" aria-hidden />
                {t('multiReference.download')}
              </a>
            </div>
          </figcaption>
          <PreviewNote preview={result.preview} />
        </figure>
      ))}
    </>
  );

  return (
    <ToolPanelLayout
      testId="multi-reference"
      icon={Layers}
      title={t('multiReference.title')}
      description={t('multiReference.description')}
      onClose={onClose}
      busy={busy}
      tab={tab}
      main={
        <div className="min-w-0 flex-1 space-y-4">
          <div className="space-y-3 rounded-2xl border border-line bg-surface p-4">
            {modeSwitch}
            {rules}
            {uploader}
            {refs.length > 0 && <div className="grid gap-2 sm:grid-cols-2 xl:grid-cols-3">{references}</div>}
          </div>
          {results.length > 0 && <div className="grid gap-3 sm:grid-cols-2">{resultList}</div>}
        </div>
      }
      side={
        <>
          {form}
          {actions}
        </>
      }
      panel={
        <>
          {modeSwitch}
          {rules}
          {uploader}
          {references}
          {form}
          {actions}
          {resultList}
        </>
      }
    />
  );
}
