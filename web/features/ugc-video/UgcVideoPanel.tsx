import { CheckCircle2, Smartphone } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  PERSONA_LIMITS,
  PERSONA_VIDEO,
  type PersonaVideoAspectRatio,
  type PersonaVideoDuration,
} from '../../../common/rules/personas.ts';
import { usePrice } from '../../api/engines.ts';
import { useCreditsText } from '../../i18n/format.ts';
import { Button } from '../../ui/Button.tsx';
import { SelectField } from '../../ui/controls.tsx';
import { EngineNote } from '../../ui/EngineBadge.tsx';
import { FormMessage } from '../../ui/Field.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { ToolPanelHeader } from '../../ui/ToolPanelHeader.tsx';
import { CreditShortfall, useCreditGuard } from '../billing/CreditShortfall.tsx';
import { generateUgcVideo, usePersonas } from '../personas/api.ts';
import { ImageDropZone } from '../personas/ImageDropZone.tsx';
import { PromptArea } from '../personas/ImageSection.tsx';
import { personaMessage } from '../personas/messages.ts';
import { useImageInputs } from '../personas/uploads.ts';
import { VideoDurationChoice, VideoRatioChoice } from '../personas/VideoChoices.tsx';
import { VideoFailedPanel, VideoPlayer, VideoProgress } from '../personas/VideoResult.tsx';
import { useVideoTask } from '../personas/videoTask.ts';
import { checkUgc } from './rules.ts';

// Vertical first: UGC videos are made for phones.
const UGC_RATIOS: readonly PersonaVideoAspectRatio[] = ['9:16', '16:9'];

/**
 * The UGC video side tool: a ready persona presents 1–2 product images and says a line (audio on), vertical
 * 9:16 by default; built on the persona video pipeline and saved as an asset.
 */
export function UgcVideoPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const credits = useCreditsText();
  const { data, isPending } = usePersonas('', 'ready');
  const [personaId, setPersonaId] = useState('');
  const products = useImageInputs(PERSONA_LIMITS.maxProductImages);
  const [script, setScript] = useState('');
  const [scene, setScene] = useState('');
  const [aspectRatio, setAspectRatio] = useState<PersonaVideoAspectRatio>(PERSONA_VIDEO.ugcAspectRatio);
  const [duration, setDuration] = useState<PersonaVideoDuration>(PERSONA_VIDEO.defaultDuration);
  const [alert, setAlert] = useState<string | null>(null);
  const { state, start } = useVideoTask();
  const running = state.phase === 'running';
  const price = usePrice('video', PERSONA_VIDEO.model, 'personaVideo');
  const { balance, shortfall } = useCreditGuard(price);
  const list = data?.personas ?? [];
  const persona = list.find((p) => p.id === personaId) ?? null;

  function generate() {
    if (shortfall > 0) return;
    const problem = checkUgc({ personaId, productImages: products.urls.length, script });
    if (problem) {
      setAlert(problem);
      return;
    }
    setAlert(null);
    void start(() =>
      generateUgcVideo(personaId, {
        script: script.trim(),
        product_images: products.urls,
        prompt: scene.trim() || undefined,
        aspectRatio,
        duration,
      }),
    );
  }

  return (
    <aside
      data-testid="tool-panel"
      data-tool="ugcVideo"
      aria-labelledby="tool-panel-ugcVideo"
      className="min-w-0 shrink-0 rounded-2xl border border-line bg-surface p-4 lg:sticky lg:top-20 lg:w-80 lg:self-start"
    >
      <div className="space-y-4" data-testid="ugc-video">
        <ToolPanelHeader
          icon={Smartphone}
          title={t('studio.tools.ugcVideo.title')}
          titleId="tool-panel-ugcVideo"
          description={t('ugcVideo.intro')}
          onClose={onClose}
        />
        {isPending ? (
          <div className="flex justify-center py-4">
            <Spinner />
          </div>
        ) : list.length === 0 ? (
          <p className="rounded-lg border border-dashed border-line-strong px-3 py-4 text-center text-xs text-muted">
            {t('ugcVideo.noPersonas')}
          </p>
        ) : (
          <SelectField
            label={t('ugcVideo.persona')}
            value={personaId}
            onChange={setPersonaId}
            options={[
              { value: '', label: t('ugcVideo.choosePersona') },
              ...list.map((p) => ({ value: p.id, label: p.name })),
            ]}
            testId="ugc-persona"
          />
        )}
        {persona?.avatar && (
          <div className="flex items-center gap-2 text-xs text-muted">
            <img src={persona.avatar} alt="" className="size-8 rounded-lg object-cover" />
            <span className="truncate">{persona.description}</span>
          </div>
        )}
        <ImageDropZone
          inputs={products}
          max={PERSONA_LIMITS.maxProductImages}
          label={t('ugcVideo.products')}
          hint={t('ugcVideo.productsHint', { max: PERSONA_LIMITS.maxProductImages })}
          testId="ugc-products"
        />
        <PromptArea
          label={t('ugcVideo.script')}
          value={script}
          onChange={setScript}
          max={PERSONA_LIMITS.ugcScriptMax}
          placeholder={t('ugcVideo.scriptPlaceholder')}
          testId="ugc-script"
        />
        <PromptArea
          label={t('ugcVideo.scene')}
          value={scene}
          onChange={setScene}
          max={PERSONA_LIMITS.productPromptMax}
          placeholder={t('ugcVideo.scenePlaceholder')}
          testId="ugc-scene"
        />
        <div className="grid grid-cols-2 gap-3">
          <VideoRatioChoice
            label={t('ugcVideo.format')}
            value={aspectRatio}
            onChange={setAspectRatio}
            ratios={UGC_RATIOS}
            testIdPrefix="ugc-ratio"
            fill
          />
          <VideoDurationChoice
            label={t('ugcVideo.duration')}
            value={duration}
            onChange={setDuration}
            secondsLabel={(count) => t('ugcVideo.seconds', { count })}
            testIdPrefix="ugc-duration"
            fill
          />
        </div>
        {alert && <FormMessage>{personaMessage(alert)}</FormMessage>}
        <EngineNote kind="video" model={PERSONA_VIDEO.model} />
        <Button
          className="w-full"
          loading={running}
          disabled={products.uploading || shortfall > 0}
          aria-describedby={shortfall > 0 ? 'ugc-shortfall-message' : undefined}
          onClick={generate}
          data-testid="ugc-generate"
        >
          {running ? t('ugcVideo.working') : t('ugcVideo.generate', { cost: credits(price) })}
        </Button>
        {!running && shortfall > 0 && (
          <CreditShortfall shortfall={shortfall} balance={balance} testId="ugc-shortfall" />
        )}
        <VideoProgress state={state} label={t('ugcVideo.progress')} />
        {state.phase === 'failed' && <VideoFailedPanel message={state.message} onRetry={generate} />}
        {state.phase === 'done' && (
          <div className="space-y-2" data-testid="ugc-result">
            <VideoPlayer url={state.url} fileName="ugc-video.mp4" vertical={aspectRatio === '9:16'} />
            {state.assetId && (
              <p className="flex items-center gap-1.5 text-xs text-success" data-testid="ugc-saved">
                <CheckCircle2 className="size-3.5" aria-hidden />
                {t('ugcVideo.saved')}
              </p>
            )}
          </div>
        )}
      </div>
    </aside>
  );
}
