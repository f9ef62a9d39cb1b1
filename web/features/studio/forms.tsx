import { ChevronDown, CircleAlert, Clapperboard, type Film, Frame, Theater, WandSparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  AUDIO_DURATIONS,
  AUDIO_GENRES,
  AUDIO_MODEL,
  AUDIO_MOODS,
  IMAGE_MODELS,
  MAX_IMAGES_PER_REQUEST,
  VIDEO_MODELS,
} from '../../../common/api/generation.constants.ts';
import { modelName } from '../../../common/rules/engines.ts';
import { modelImageLimit } from '../../../common/rules/generation.ts';
import {
  aspectRatioOfSize,
  IMAGE_ASPECT_RATIOS,
  IMAGE_SIZES,
  modelForSubMode,
  sizeForAspectRatio,
  VIDEO_ASPECT_RATIOS,
  VIDEO_SUB_MODES,
  type VideoSubMode,
  videoModelInputs,
} from '../../../common/rules/studio.ts';
import { useModelEngines } from '../../api/engines.ts';
import { localizeMessage } from '../../i18n/localize.ts';
import { cn } from '../../ui/cn.ts';
import { RangeField, Segmented, SelectField, SwitchField, TextInputField } from '../../ui/controls.tsx';
import { MediaSlot } from './MediaSlot.tsx';
import type { ModeInputs } from './requests.ts';
import {
  IMAGE_STYLES,
  PERSON_GENERATION,
  QUALITIES,
  SAMPLE_IMAGE_SIZES,
  useStudio,
  VIDEO_DURATIONS,
  VOICES,
} from './store.ts';

function Advanced({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <details className="group rounded-xl border border-line bg-surface-2/40">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-2 rounded-xl px-3 py-2.5 text-sm font-medium text-fg [&::-webkit-details-marker]:hidden">
        {t('studio.fields.advanced')}
        <ChevronDown className="size-4 text-subtle transition-transform group-open:rotate-180" aria-hidden />
      </summary>
      <div className="grid gap-3 border-t border-line p-3 sm:grid-cols-2">{children}</div>
    </details>
  );
}

/** How many images the inputs hold against the model's limit, and the spec's message when over it. */
function ImageLimit({ info }: { info: ModeInputs }) {
  const { t } = useTranslation();
  const { limit } = modelImageLimit(info.model);
  return (
    <div className="space-y-2">
      <p className={cn('text-xs tabular-nums', info.limitError ? 'text-danger' : 'text-subtle')}>
        {t('studio.inputs.limit', { count: info.limitCount, max: limit, model: modelName(info.model) })}
      </p>
      {info.limitError && (
        <p
          role="alert"
          data-testid="image-limit-error"
          className="flex items-start gap-2 rounded-lg border border-danger/30 bg-danger-soft px-3 py-2 text-xs leading-relaxed text-danger"
        >
          <CircleAlert className="mt-0.5 size-3.5 shrink-0" aria-hidden />
          {localizeMessage(info.limitError)}
        </p>
      )}
    </div>
  );
}

function useOptionLists() {
  const { t } = useTranslation();
  return {
    styles: [
      { value: '', label: t('studio.fields.styleNone') },
      ...IMAGE_STYLES.map((value) => ({ value, label: t(`studio.styles.${value}`) })),
    ],
    qualities: QUALITIES.map((value) => ({ value, label: t(`studio.qualities.${value}`) })),
    personGeneration: PERSON_GENERATION.map((value) => ({ value, label: t(`studio.personGeneration.${value}`) })),
  };
}

export function ImageForm({ info }: { info: ModeInputs }) {
  const { t } = useTranslation();
  const engines = useModelEngines();
  const image = useStudio((s) => s.image);
  const setImage = useStudio((s) => s.setImage);
  const lists = useOptionLists();
  const sizeRatio = aspectRatioOfSize(image.size);

  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label={t('studio.fields.model')}
          className="sm:col-span-2"
          value={image.model}
          onChange={(model) => setImage({ model })}
          options={IMAGE_MODELS.map((value) => ({ value, label: engines.model('image', value).label }))}
          testId="image-model"
        />
        <SelectField
          label={t('studio.fields.style')}
          value={image.style}
          onChange={(style) => setImage({ style })}
          options={lists.styles}
        />
        <SelectField
          label={t('studio.fields.aspectRatio')}
          value={image.aspectRatio}
          onChange={(aspectRatio) => setImage({ aspectRatio, size: sizeForAspectRatio(aspectRatio, image.size) })}
          options={IMAGE_ASPECT_RATIOS.map((value) => ({ value, label: value }))}
        />
        <SelectField
          label={t('studio.fields.size')}
          value={image.size}
          onChange={(size) => setImage({ size, aspectRatio: aspectRatioOfSize(size) ?? image.aspectRatio })}
          options={IMAGE_SIZES.filter((size) => aspectRatioOfSize(size) === (sizeRatio ?? image.aspectRatio)).map(
            (value) => ({ value, label: value.replace('x', ' × ') }),
          )}
          testId="image-size"
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1.5">
          <span className="text-xs font-medium text-muted">{t('studio.fields.variations')}</span>
          <Segmented
            label={t('studio.fields.variations')}
            value={String(image.variations)}
            onChange={(value) => setImage({ variations: Number(value) })}
            options={Array.from({ length: MAX_IMAGES_PER_REQUEST }, (_, i) => ({
              value: String(i + 1),
              label: String(i + 1),
            }))}
            testIdPrefix="image-variations"
            size="sm"
            layout="fill"
          />
        </div>
        <div className="space-y-1.5">
          <span className="text-xs font-medium text-muted">{t('studio.fields.quality')}</span>
          <Segmented
            label={t('studio.fields.quality')}
            value={image.quality}
            onChange={(quality) => setImage({ quality })}
            options={lists.qualities}
            size="sm"
            layout="fill"
          />
        </div>
      </div>
      <SwitchField
        label={t('studio.fields.autoUpscale')}
        description={t('studio.fields.autoUpscaleHint')}
        checked={image.autoUpscale}
        onChange={(autoUpscale) => setImage({ autoUpscale })}
        testId="image-auto-upscale"
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <MediaSlot
          slot="imageReferences"
          kind="image"
          label={t('studio.inputs.references')}
          description={t('studio.inputs.referencesHint')}
        />
        <MediaSlot
          slot="imageCharacters"
          kind="image"
          label={t('studio.inputs.characters')}
          description={t('studio.inputs.charactersHint')}
        />
      </div>
      <ImageLimit info={info} />
      <TextInputField
        label={t('studio.fields.negativePrompt')}
        placeholder={t('studio.fields.negativePromptPlaceholder')}
        value={image.negativePrompt}
        onChange={(negativePrompt) => setImage({ negativePrompt })}
        maxLength={2000}
        multiline
      />
      <Advanced>
        <SelectField
          label={t('studio.fields.sampleImageSize')}
          value={image.sampleImageSize}
          onChange={(sampleImageSize) => setImage({ sampleImageSize })}
          options={[
            { value: '', label: t('studio.fields.sampleFromSize') },
            ...SAMPLE_IMAGE_SIZES.map((value) => ({ value, label: value })),
          ]}
          hint={t('studio.fields.sampleImageSizeHint')}
        />
        <SelectField
          label={t('studio.fields.numberOfImages')}
          value={String(image.numberOfImages)}
          onChange={(value) => setImage({ numberOfImages: Number(value) })}
          options={Array.from({ length: MAX_IMAGES_PER_REQUEST }, (_, i) => ({
            value: String(i + 1),
            label: String(i + 1),
          }))}
          hint={t('studio.fields.numberOfImagesHint')}
        />
        <SelectField
          label={t('studio.fields.personGeneration')}
          value={image.personGeneration}
          onChange={(personGeneration) => setImage({ personGeneration })}
          options={lists.personGeneration}
        />
      </Advanced>
    </div>
  );
}

const SUB_MODE_ICONS: Record<VideoSubMode, typeof Film> = {
  normal: Clapperboard,
  magicModify: WandSparkles,
  actStudio: Theater,
  filmmakerPro: Frame,
};

export function VideoForm({ info }: { info: ModeInputs }) {
  const { t } = useTranslation();
  const engines = useModelEngines();
  const video = useStudio((s) => s.video);
  const setVideo = useStudio((s) => s.setVideo);
  const lists = useOptionLists();
  const subMode = info.subMode ?? 'normal';
  const caps = videoModelInputs(video.model);

  return (
    <div className="space-y-4">
      <div className="space-y-1.5">
        <span className="text-xs font-medium text-muted">{t('studio.video.subMode')}</span>
        <Segmented
          label={t('studio.video.subMode')}
          value={subMode}
          onChange={(next) => setVideo({ model: modelForSubMode(next, video.model) })}
          options={VIDEO_SUB_MODES.map((value) => {
            const Icon = SUB_MODE_ICONS[value];
            return {
              value,
              label: t(`studio.video.subModes.${value}.label`),
              icon: <Icon className="size-3.5" aria-hidden />,
            };
          })}
          testIdPrefix="video-submode"
          size="sm"
          layout="grid"
        />
        <p className="text-xs leading-snug text-subtle" data-testid="video-submode-description">
          {t(`studio.video.subModes.${subMode}.description`)}
        </p>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label={t('studio.fields.model')}
          className="sm:col-span-2"
          value={video.model}
          onChange={(model) => setVideo({ model })}
          options={VIDEO_MODELS.map((value) => ({ value, label: engines.model('video', value).label }))}
          testId="video-model"
          hint={subMode === 'normal' ? undefined : t('studio.video.modelFixed')}
        />
        <SelectField
          label={t('studio.fields.duration')}
          value={String(video.duration)}
          onChange={(value) => setVideo({ duration: Number(value) })}
          options={VIDEO_DURATIONS.map((value) => ({
            value: String(value),
            label: t('studio.time.seconds', { s: value }),
          }))}
          testId="video-duration"
        />
        <SelectField
          label={t('studio.fields.aspectRatio')}
          value={video.aspectRatio}
          onChange={(aspectRatio) => setVideo({ aspectRatio })}
          options={VIDEO_ASPECT_RATIOS.map((value) => ({ value, label: value }))}
        />
        <SelectField
          label={t('studio.fields.style')}
          value={video.style}
          onChange={(style) => setVideo({ style })}
          options={lists.styles}
        />
        <SelectField
          label={t('studio.fields.quality')}
          value={video.quality}
          onChange={(quality) => setVideo({ quality })}
          options={lists.qualities}
        />
        <RangeField
          label={t('studio.fields.creativity')}
          value={video.creativity}
          onChange={(creativity) => setVideo({ creativity })}
          min={0}
          max={1}
          step={0.01}
          format={(value) => value.toFixed(2)}
        />
      </div>
      <SwitchField
        label={t('studio.fields.generateAudio')}
        description={caps.audio ? t('studio.fields.generateAudioHint') : t('studio.fields.generateAudioUnsupported')}
        checked={caps.audio && video.generateAudio}
        disabled={!caps.audio}
        onChange={(generateAudio) => setVideo({ generateAudio })}
        testId="video-generate-audio"
      />

      {info.slots.length > 0 && (
        <div className="grid gap-3 sm:grid-cols-2">
          {info.slots.map((slot) => {
            const copy = t(`studio.video.slots.${subMode}.${slot}`, { returnObjects: true }) as {
              label: string;
              description: string;
            };
            return (
              <MediaSlot
                key={`${subMode}-${slot}`}
                slot={slot}
                kind={slot === 'videoInput' ? 'video' : 'image'}
                label={copy.label}
                description={copy.description}
              />
            );
          })}
        </div>
      )}
      {subMode === 'filmmakerPro' && (
        <p className="text-xs leading-snug text-subtle" data-testid="dual-frame-note">
          {t('studio.video.dualFrameNote', { count: info.limitCount })}
        </p>
      )}
      {info.slots.some((slot) => slot !== 'videoInput') && <ImageLimit info={info} />}
      <TextInputField
        label={t('studio.fields.negativePrompt')}
        placeholder={t('studio.fields.negativePromptPlaceholder')}
        value={video.negativePrompt}
        onChange={(negativePrompt) => setVideo({ negativePrompt })}
        maxLength={2000}
        multiline
      />
      <Advanced>
        <SelectField
          label={t('studio.fields.personGeneration')}
          value={video.personGeneration}
          onChange={(personGeneration) => setVideo({ personGeneration })}
          options={lists.personGeneration}
        />
      </Advanced>
    </div>
  );
}

export function AudioForm() {
  const { t } = useTranslation();
  const engines = useModelEngines();
  const audio = useStudio((s) => s.audio);
  const setAudio = useStudio((s) => s.setAudio);
  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1.5">
          <span className="text-xs font-medium text-muted">{t('studio.fields.audioType')}</span>
          <Segmented
            label={t('studio.fields.audioType')}
            value={audio.type}
            onChange={(type) => setAudio({ type })}
            options={(['music', 'voice'] as const).map((value) => ({ value, label: t(`studio.audio.types.${value}`) }))}
            testIdPrefix="audio-type"
            size="sm"
            layout="fill"
          />
        </div>
        <div className="space-y-1.5">
          <span className="text-xs font-medium text-muted">{t('studio.fields.model')}</span>
          <p className="flex h-8 items-center text-sm text-fg" dir="ltr">
            {engines.model('audio', AUDIO_MODEL).label}
          </p>
        </div>
      </div>
      <div className="space-y-1.5">
        <span className="text-xs font-medium text-muted">{t('studio.fields.duration')}</span>
        <Segmented
          label={t('studio.fields.duration')}
          value={String(audio.duration)}
          onChange={(value) => setAudio({ duration: Number(value) })}
          options={AUDIO_DURATIONS.map((value) => ({
            value: String(value),
            label: t('studio.time.seconds', { s: value }),
          }))}
          testIdPrefix="audio-duration"
          size="sm"
          layout="fill"
        />
      </div>
      {audio.type === 'music' ? (
        <>
          <div className="grid gap-3 sm:grid-cols-2">
            <SelectField
              label={t('studio.fields.genre')}
              value={audio.genre}
              onChange={(genre) => setAudio({ genre })}
              options={AUDIO_GENRES.map((value) => ({ value, label: t(`studio.audio.genres.${value}`) }))}
            />
            <div className="space-y-1.5">
              <span className="text-xs font-medium text-muted">{t('studio.fields.mood')}</span>
              <Segmented
                label={t('studio.fields.mood')}
                value={audio.mood}
                onChange={(mood) => setAudio({ mood })}
                options={AUDIO_MOODS.map((value) => ({ value, label: t(`studio.audio.moods.${value}`) }))}
                size="sm"
                layout="fill"
              />
            </div>
          </div>
          <TextInputField
            label={t('studio.fields.instruments')}
            placeholder={t('studio.fields.instrumentsPlaceholder')}
            hint={t('studio.fields.instrumentsHint')}
            value={audio.instruments}
            onChange={(instruments) => setAudio({ instruments })}
            maxLength={400}
          />
        </>
      ) : (
        <SelectField
          label={t('studio.fields.voice')}
          value={audio.voice}
          onChange={(voice) => setAudio({ voice })}
          options={VOICES.map((value) => ({ value, label: t(`studio.audio.voices.${value}`) }))}
          hint={t('studio.fields.voiceHint')}
        />
      )}
    </div>
  );
}
