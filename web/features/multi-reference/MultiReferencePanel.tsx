import { Download, Film, ImagePlus, Layers, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { MultiReferenceBody, MultiReferenceReply } from '../../../common/api/multi-reference.ts';
import { MULTI_REFERENCE } from '../../../common/constants.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { getTask } from '../../api/assets.ts';
import { ApiError, apiRequest } from '../../api/client.ts';
import { usePrice } from '../../api/engines.ts';
import { uploadFiles } from '../../api/uploads.ts';
import { translateMessage } from '../../i18n/index.ts';
import { disabledButtonClass } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { ToolPanelLayout } from '../../ui/ToolPanelLayout.tsx';
import { EngineBadge, EngineNote, engineOf } from '../assets/EngineBadge.tsx';
import { CreditShortfall, useCreditGuard } from '../billing/CreditShortfall.tsx';
import { useCanvas } from '../canvas/store.ts';
import { useSessionParticipant } from '../editor-sessions/registry.ts';
import { imageThumbnail } from '../multi-composition/images.ts';
import {
  type BlendMode,
  type CompositionMode,
  captureMultiReferenceSession,
  type MultiReferenceResult,
  parseMultiReferenceSession,
  type Quality,
  type RefType,
} from './session.ts';
import { checkReferenceFile, type MultiReferenceMode, referenceAccept } from './upload-rules.ts';

// The Multi-Reference side tool (canvas spec 2, 5, 7, 9): up to 8 weighted references, blend
// settings, prompt; Generate calls the server once per variation. Two modes: image (a blend into an
// image) and video-to-video (the first video reference restyled by the images; videos mp4, mov, webm,
// avi and images up to 100 MB), whose result is a playable video.

interface Reference {
  id: string;
  name: string;
  url: string;
  weight: number;
  type: RefType;
  description: string;
  mediaType: 'image' | 'video';
}

type Result = MultiReferenceResult;

const inputClass = 'w-full rounded-lg border border-line bg-surface-2 px-2 py-1.5 text-xs';
const labelClass = 'text-[11px] font-medium text-muted';
/** How often a still-running video-to-video task is polled (GET /api/tasks/{id}). */
const TASK_POLL_MS = 2000;

/** Longest a running video-to-video task is waited for (the server's task expiry). */
const TASK_WAIT_MS = 30 * 60_000;

/** Waits for a task, reporting its progress, and answers its first output (null when it failed). */
async function taskOutput(
  taskId: string,
  onProgress: (percent: number) => void,
): Promise<{ url: string; id: string | null; engine: string | null } | null> {
  const deadline = Date.now() + TASK_WAIT_MS;
  while (Date.now() < deadline) {
    const { data } = await getTask(taskId);
    if (data.status === 'completed') {
      const first = (
        data.result?.assets as Array<{ url: string; id: string; metadata?: Record<string, unknown> }> | undefined
      )?.[0];
      return first ? { url: first.url, id: first.id, engine: engineOf(first.metadata) } : null;
    }
    if (data.status === 'failed') return null;
    onProgress(data.progress);
    await new Promise((resolve) => setTimeout(resolve, TASK_POLL_MS));
  }
  return null;
}

export function MultiReferencePanel({ onClose, layout = 'panel' }: { onClose?: () => void; layout?: 'panel' | 'tab' }) {
  const { t } = useTranslation();
  const [, setParams] = useSearchParams();
  const addImage = useCanvas((s) => s.addImage);
  const [mode, setMode] = useState<MultiReferenceMode>('image');
  const [refs, setRefs] = useState<Reference[]>([]);
  const [prompt, setPrompt] = useState('');
  const [styleModifier, setStyleModifier] = useState('');
  const [negativePrompt, setNegativePrompt] = useState('');
  const [blendMode, setBlendMode] = useState<BlendMode>(MULTI_REFERENCE.defaults.blendMode);
  const [strength, setStrength] = useState<number>(MULTI_REFERENCE.strength.default);
  const [variations, setVariations] = useState<number>(MULTI_REFERENCE.variations.default);
  const [aspectRatio, setAspectRatio] = useState<string>(MULTI_REFERENCE.defaults.aspectRatio);
  const [quality, setQuality] = useState<Quality>(MULTI_REFERENCE.defaults.quality);
  const [compositionMode, setCompositionMode] = useState<CompositionMode>(MULTI_REFERENCE.defaults.compositionMode);
  const [preserveDetails, setPreserveDetails] = useState<boolean>(MULTI_REFERENCE.defaults.preserveDetails);
  const pricePerImage = usePrice('image', MULTI_REFERENCE.model, 'multiReference');
  const pricePerVideo = usePrice('video', MULTI_REFERENCE.videoToVideo.model, 'videoRunway');
  const { balance, shortfall } = useCreditGuard(
    (mode === 'video-to-video' ? pricePerVideo : pricePerImage) * variations,
  );
  const [uploading, setUploading] = useState(false);
  const [busy, setBusy] = useState(false);
  /** Progress (percent) of a video-to-video task still running. */
  const [progress, setProgress] = useState<number | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [results, setResults] = useState<Result[]>([]);

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
    restore: (data) => {
      const state = parseMultiReferenceSession(data);
      setMode(state.mode);
      setRefs(
        state.referenceImages.map((r) => ({
          id: r.id,
          name: r.filename,
          url: r.url,
          weight: r.weight,
          type: r.type,
          description: r.description,
          mediaType: r.mediaType,
        })),
      );
      setPrompt(state.prompt);
      setStyleModifier(state.styleModifier);
      setNegativePrompt(state.negativePrompt);
      const b = state.blendSettings;
      setBlendMode(b.blendMode);
      setStrength(b.strength);
      setVariations(b.variations);
      setAspectRatio(b.aspectRatio);
      setQuality(b.quality);
      setCompositionMode(b.compositionMode);
      setPreserveDetails(b.preserveDetails);
      setResults(state.results);
      setErrors([]);
    },
    thumbnail: () => imageThumbnail(refs[0]?.url ?? results[0]?.url),
  });

  const patchRef = (id: string, patch: Partial<Reference>) =>
    setRefs((list) => list.map((r) => (r.id === id ? { ...r, ...patch } : r)));

  async function onFiles(list: FileList | null) {
    if (!list) return;
    const problems: string[] = [];
    const room = MULTI_REFERENCE.maxFiles - refs.length;
    const picked = Array.from(list);
    if (picked.length > room) problems.push(MESSAGES.multiReference.tooManyFiles(MULTI_REFERENCE.maxFiles));
    const files: File[] = [];
    const kinds: Array<'image' | 'video'> = [];
    let maxMb: number = MULTI_REFERENCE.imageMaxMb;
    for (const file of picked.slice(0, Math.max(0, room))) {
      const verdict = checkReferenceFile(file, mode);
      if ('error' in verdict) {
        problems.push(`${file.name}: ${verdict.error}`);
        continue;
      }
      files.push(file);
      kinds.push(verdict.mediaType);
      maxMb = Math.max(maxMb, verdict.maxMb);
    }
    setErrors(problems);
    if (files.length === 0) return;
    setUploading(true);
    try {
      const settled = await uploadFiles(files, { maxMb });
      const added: Reference[] = [];
      settled.forEach((outcome, i) => {
        const file = files[i];
        if (outcome.status === 'fulfilled' && file) {
          added.push({
            id: `${Date.now()}-${i}-${file.name}`,
            name: file.name,
            url: outcome.value.url,
            weight: MULTI_REFERENCE.weight.default,
            type: 'style',
            description: '',
            mediaType: kinds[i] ?? 'image',
          });
        } else if (outcome.status === 'rejected') {
          problems.push(`${file?.name ?? ''}: ${String((outcome.reason as Error)?.message ?? outcome.reason)}`);
        }
      });
      setRefs((current) => [...current, ...added].slice(0, MULTI_REFERENCE.maxFiles));
      setErrors([...problems]);
    } finally {
      setUploading(false);
    }
  }

  async function generate() {
    if (!prompt.trim() || refs.length === 0) {
      setErrors([MESSAGES.multiReference.promptAndReference]);
      return;
    }
    const video = mode === 'video-to-video';
    if (video && !refs.some((r) => r.mediaType === 'video')) {
      setErrors([MESSAGES.multiReference.videoRequired]);
      return;
    }
    setBusy(true);
    setErrors([]);
    setResults([]);
    const fullPrompt = styleModifier.trim() ? `${prompt.trim()}, ${styleModifier.trim()}` : prompt.trim();
    const failures: string[] = [];
    for (let n = 1; n <= variations; n++) {
      const body: MultiReferenceBody = {
        service: video ? 'runway' : 'nanobana',
        type: video ? MULTI_REFERENCE.videoToVideo.type : 'image-to-image',
        prompt: fullPrompt,
        negativePrompt: negativePrompt.trim() || undefined,
        referenceImages: refs.map((r) => ({
          url: r.url,
          weight: r.weight / 100,
          type: r.type,
          description: r.description.trim() || undefined,
          mediaType: r.mediaType,
        })),
        blendMode,
        strength: strength / 100,
        numImages: 1,
        aspectRatio,
        quality,
        compositionMode,
        preserveDetails,
        multiReference: true,
        seed: Math.floor(Math.random() * 1_000_000),
      };
      try {
        const reply = await apiRequest<MultiReferenceReply>('/api/ai/generate/multi-reference', {
          method: 'POST',
          body,
        });
        const output =
          reply.data.url !== null
            ? { url: reply.data.url, id: reply.data.id, engine: engineOf(reply.data.images[0]?.metadata) }
            : reply.data.status === 'processing'
              ? await taskOutput(reply.data.taskId, setProgress)
              : null;
        if (output) {
          const mediaType = video ? ('video' as const) : ('image' as const);
          setResults((list) => [...list, { ...output, variation: n, mediaType }]);
        } else failures.push(MESSAGES.multiReference.variationFailed(n));
      } catch (error) {
        const detail = error instanceof ApiError ? `: ${error.message}` : '';
        failures.push(`${MESSAGES.multiReference.variationFailed(n)}${detail}`);
      }
    }
    setErrors(failures);
    setProgress(null);
    setBusy(false);
  }

  function switchMode(next: MultiReferenceMode) {
    if (next === mode) return;
    setMode(next);
    setResults([]);
    if (next === 'image' && refs.some((r) => r.mediaType === 'video')) {
      // Videos are only references in video-to-video mode.
      setRefs((list) => list.filter((r) => r.mediaType === 'image'));
      setErrors([MESSAGES.multiReference.unsupportedType]);
    } else setErrors([]);
  }

  function clearAll() {
    setRefs([]);
    setPrompt('');
    setStyleModifier('');
    setNegativePrompt('');
    setResults([]);
    setErrors([]);
  }

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

  const select = <T extends string>(value: T, options: readonly T[], onChange: (v: T) => void, label: string) => (
    <label className="block space-y-1">
      <span className={labelClass}>{label}</span>
      <select className={inputClass} value={value} onChange={(e) => onChange(e.target.value as T)}>
        {options.map((o) => (
          <option key={o} value={o}>
            {t(`multiReference.options.${o}`, { defaultValue: o })}
          </option>
        ))}
      </select>
    </label>
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
    <p className="text-[11px] text-muted" data-testid="mr-rules">
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
              className="text-muted hover:text-fg"
              onClick={() => setRefs((list) => list.filter((r) => r.id !== ref.id))}
            >
              <Trash2 className="size-4" aria-hidden />
            </button>
          </div>
          <label className="block">
            <span className={labelClass}>{t('multiReference.weight', { value: ref.weight })}</span>
            <input
              type="range"
              data-testid="mr-weight"
              min={MULTI_REFERENCE.weight.min}
              max={MULTI_REFERENCE.weight.max}
              value={ref.weight}
              onChange={(e) => patchRef(ref.id, { weight: Number(e.target.value) })}
              className="w-full"
            />
          </label>
          {select(
            ref.type,
            MULTI_REFERENCE.referenceTypes,
            (type) => patchRef(ref.id, { type }),
            t('multiReference.type'),
          )}
          <input
            className={inputClass}
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
          className={inputClass}
          rows={3}
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
        />
      </label>
      <label className="block space-y-1">
        <span className={labelClass}>{t('multiReference.styleModifier')}</span>
        <input className={inputClass} value={styleModifier} onChange={(e) => setStyleModifier(e.target.value)} />
      </label>
      <label className="block space-y-1">
        <span className={labelClass}>{t('multiReference.negativePrompt')}</span>
        <input className={inputClass} value={negativePrompt} onChange={(e) => setNegativePrompt(e.target.value)} />
      </label>

      <fieldset className="space-y-2 rounded-xl border border-line p-2">
        <legend className={labelClass}>{t('multiReference.blendSettings')}</legend>
        {mode === 'image' && select(blendMode, MULTI_REFERENCE.blendModes, setBlendMode, t('multiReference.blendMode'))}
        <label className="block">
          <span className={labelClass}>{t('multiReference.strength', { value: strength })}</span>
          <input
            type="range"
            min={MULTI_REFERENCE.strength.min}
            max={MULTI_REFERENCE.strength.max}
            value={strength}
            onChange={(e) => setStrength(Number(e.target.value))}
            className="w-full"
          />
        </label>
        <label className="block space-y-1">
          <span className={labelClass}>{t('multiReference.variations')}</span>
          <input
            type="number"
            data-testid="mr-variations"
            className={inputClass}
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
        {select(aspectRatio, MULTI_REFERENCE.aspectRatios, setAspectRatio, t('multiReference.aspectRatio'))}
        {select(quality, MULTI_REFERENCE.qualities, setQuality, t('multiReference.quality'))}
        {mode === 'image' && (
          <>
            {select(
              compositionMode,
              MULTI_REFERENCE.compositionModes,
              setCompositionMode,
              t('multiReference.compositionMode'),
            )}
            <label className="flex items-center gap-2 text-xs">
              <input type="checkbox" checked={preserveDetails} onChange={(e) => setPreserveDetails(e.target.checked)} />
              {t('multiReference.preserveDetails')}
            </label>
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
          onClick={() => void generate()}
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
          <figcaption className="flex items-center gap-2 text-xs">
            <span className="flex-1">{t('multiReference.variation', { n: result.variation })}</span>
            <EngineBadge engine={result.engine} className="text-muted" />
            {result.mediaType === 'image' && (
              <button
                type="button"
                className="rounded-md border border-line px-2 py-1"
                onClick={() => openInCanvas(result)}
              >
                {t('multiReference.openInCanvas')}
              </button>
            )}
            <a
              href={result.url}
              download={`multi-reference-${result.variation}.${result.mediaType === 'video' ? 'mp4' : 'png'}`}
              className="inline-flex items-center gap-1 rounded-md border border-line px-2 py-1"
            >
              <Download className="size-3" aria-hidden />
              {t('multiReference.download')}
            </a>
          </figcaption>
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
