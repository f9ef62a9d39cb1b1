import { Check, Clapperboard, FolderPlus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Persona } from '../../../common/api/personas.ts';
import { MESSAGES } from '../../../common/messages.ts';
import {
  PERSONA_LIMITS,
  PERSONA_VIDEO,
  type PersonaImageType,
  type PersonaVideoAspectRatio,
  type PersonaVideoDuration,
} from '../../../common/rules/personas.ts';
import { usePrice } from '../../api/engines.ts';
import { addToWorkspace } from '../../api/workspace.ts';
import { useCreditsText } from '../../i18n/format.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { labelClass } from '../../ui/controls.tsx';
import { EngineBadge, EngineNote } from '../../ui/EngineBadge.tsx';
import { FormMessage } from '../../ui/Field.tsx';
import { CreditShortfall, useCreditGuard } from '../billing/CreditShortfall.tsx';
import { generatePersonaVideo } from './api.ts';
import { galleryImages } from './form.ts';
import { PromptArea } from './ImageSection.tsx';
import { personaMessage } from './messages.ts';
import type { ImageInputs } from './uploads.ts';
import { VideoDurationChoice, VideoRatioChoice } from './VideoChoices.tsx';
import { VideoFailedPanel, VideoPlayer, VideoProgress, VideoResultDialog } from './VideoResult.tsx';
import { useVideoTask } from './videoTask.ts';

/** The persona image the video starts from: one of the ready images, shown as a choice of thumbnails. */
function ImageTypeChoice({
  persona,
  value,
  onChange,
}: {
  persona: Persona;
  value: PersonaImageType | null;
  onChange: (type: PersonaImageType) => void;
}) {
  const { t } = useTranslation();
  const ready = galleryImages(persona).filter((image) => image.status === 'ready' && image.url);
  return (
    <fieldset className="space-y-1.5">
      <legend className={labelClass}>{t('personas.video.imageType')}</legend>
      {ready.length === 0 ? (
        <p className="text-xs text-subtle">{t('personas.video.noImages')}</p>
      ) : (
        <div className="grid max-w-md grid-cols-5 gap-1.5" role="radiogroup" aria-label={t('personas.video.imageType')}>
          {ready.map((image) => {
            const selected = value === image.type;
            const label = t(`personas.imageTypes.${image.type}`);
            return (
              // biome-ignore lint/a11y/useSemanticElements: a picture choice, not a plain radio button
              <button
                key={image.type}
                type="button"
                role="radio"
                aria-checked={selected}
                onClick={() => onChange(image.type)}
                data-testid={`persona-video-image-${image.type}`}
                className={cn(
                  'relative w-full min-w-0 overflow-hidden rounded-lg border-2 text-start transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
                  selected ? 'border-accent' : 'border-transparent hover:border-line-strong',
                )}
              >
                <img
                  src={image.thumbnail_url ?? image.url ?? ''}
                  alt=""
                  className="aspect-[3/4] w-full bg-surface-3 object-cover"
                />
                <span className="block truncate bg-surface-2 px-1 py-0.5 text-xs text-muted">{label}</span>
                {selected && (
                  <span className="absolute end-1 top-1 grid size-4 place-items-center rounded-full bg-accent text-accent-fg">
                    <Check className="size-3" aria-hidden />
                  </span>
                )}
              </button>
            );
          })}
        </div>
      )}
    </fieldset>
  );
}

/**
 * The persona video (spec 5, 9): prompt ≤ 500, the image it starts from, 5 or 8 s (8), 16:9 or 9:16,
 * 21 credits; progress while its task is followed, then the result dialog, or 'Video Generation Failed' with tips.
 * The product images and prompt of the Product section go along when there are any.
 */
export function VideoSection({
  persona,
  products,
  productPrompt,
}: {
  persona: Persona;
  products: ImageInputs;
  productPrompt: string;
}) {
  const { t } = useTranslation();
  const credits = useCreditsText();
  const [prompt, setPrompt] = useState('');
  const [imageType, setImageType] = useState<PersonaImageType | null>(null);
  const [duration, setDuration] = useState<PersonaVideoDuration>(PERSONA_VIDEO.defaultDuration);
  const [aspectRatio, setAspectRatio] = useState<PersonaVideoAspectRatio>(PERSONA_VIDEO.defaultAspectRatio);
  const [alert, setAlert] = useState<string | null>(null);
  const [resultOpen, setResultOpen] = useState(false);
  const [added, setAdded] = useState(false);
  const { state, start } = useVideoTask();
  const running = state.phase === 'running';
  const price = usePrice('video', PERSONA_VIDEO.model, 'personaVideo');
  const { balance, shortfall } = useCreditGuard(price);

  function generate() {
    if (shortfall > 0) return;
    if (!prompt.trim()) {
      setAlert(MESSAGES.personas.videoPromptRequired);
      return;
    }
    if (!imageType) {
      setAlert(MESSAGES.personas.imageTypeRequired);
      return;
    }
    setAlert(null);
    setAdded(false);
    const productImages = products.urls;
    void start(() =>
      generatePersonaVideo(persona.id, {
        prompt: prompt.trim(),
        imageType,
        duration,
        aspectRatio,
        ...(productImages.length > 0 ? { productImages, productPrompt: productPrompt.trim() || undefined } : {}),
      }),
    );
  }

  // The result dialog opens by itself when the video is done.
  const [shownFor, setShownFor] = useState<string | null>(null);
  if (state.phase === 'done' && shownFor !== state.url) {
    setShownFor(state.url);
    setResultOpen(true);
  }

  async function addVideo(assetId: string) {
    const outcome = await addToWorkspace({ assetId, assetType: 'video', metadata: { personaId: persona.id } });
    if (outcome.kind === 'failed') toast.error(personaMessage(outcome.message));
    else {
      setAdded(true);
      if (outcome.kind === 'duplicate') toast.info(personaMessage(outcome.message));
      else toast.success(personaMessage(MESSAGES.personas.workspaceAdded));
    }
  }

  const fileName = `${persona.name.replace(/[^\p{L}\p{N}]+/gu, '-')}-video.mp4`;

  return (
    <div className="space-y-3" data-testid="persona-video-section">
      <PromptArea
        label={t('personas.video.prompt')}
        value={prompt}
        onChange={setPrompt}
        max={PERSONA_LIMITS.videoPromptMax}
        placeholder={t('personas.video.promptPlaceholder')}
        testId="persona-video-prompt"
      />
      <ImageTypeChoice persona={persona} value={imageType} onChange={setImageType} />
      <div className="flex flex-wrap gap-x-4 gap-y-3">
        <VideoDurationChoice
          label={t('personas.video.duration')}
          value={duration}
          onChange={setDuration}
          secondsLabel={(count) => t('personas.video.seconds', { count })}
          testIdPrefix="persona-video-duration"
        />
        <VideoRatioChoice
          label={t('personas.video.aspectRatio')}
          value={aspectRatio}
          onChange={setAspectRatio}
          testIdPrefix="persona-video-ratio"
        />
      </div>
      {products.urls.length > 0 && (
        <p className="text-xs text-muted" data-testid="persona-video-products">
          {t('personas.video.withProducts', { count: products.urls.length })}
        </p>
      )}
      {alert && <FormMessage>{personaMessage(alert)}</FormMessage>}
      <div className="flex flex-wrap items-center gap-3">
        <Button
          loading={running}
          disabled={shortfall > 0}
          aria-describedby={shortfall > 0 ? 'persona-video-shortfall-message' : undefined}
          onClick={generate}
          data-testid="persona-video-generate"
        >
          {!running && <Clapperboard className="size-4" aria-hidden />}
          {running ? t('personas.working') : t('personas.video.generate')}
        </Button>
        <span className="text-xs font-medium text-muted" data-testid="persona-video-cost">
          {credits(price)}
        </span>
        <EngineNote kind="video" model={PERSONA_VIDEO.model} />
      </div>
      {!running && shortfall > 0 && (
        <CreditShortfall shortfall={shortfall} balance={balance} testId="persona-video-shortfall" />
      )}
      <VideoProgress state={state} label={t('personas.video.progress')} />
      {state.phase === 'failed' && <VideoFailedPanel message={state.message} onRetry={generate} />}
      {state.phase === 'done' && (
        <div className="space-y-2 rounded-xl border border-line bg-surface-2/60 p-3" data-testid="persona-video-done">
          <VideoPlayer url={state.url} fileName={fileName} vertical={aspectRatio === '9:16'} />
          <EngineBadge engine={state.engine} className="text-muted" />
          {state.assetId && (
            <Button
              size="sm"
              variant="secondary"
              disabled={added}
              onClick={() => state.assetId && void addVideo(state.assetId)}
              data-testid="persona-video-add-workspace"
            >
              {added ? <Check className="size-4" aria-hidden /> : <FolderPlus className="size-4" aria-hidden />}
              {added ? t('personas.detail.inWorkspace') : t('personas.video.addToWorkspace')}
            </Button>
          )}
          <VideoResultDialog
            url={state.url}
            open={resultOpen}
            onOpenChange={setResultOpen}
            fileName={fileName}
            vertical={aspectRatio === '9:16'}
          />
        </div>
      )}
    </div>
  );
}
