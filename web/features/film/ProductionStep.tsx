// Step 4, Production (canvas spec 3 "Production settings", "Cinematography"; 9 defaults): the format and look
// of every shot, then Generate Sequences — one film sequence per screenplay shot — which moves to Review.
import { Clapperboard } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { FILM_DEFAULTS, sequenceBlocker, stepAfter } from '../../../common/rules/film.ts';
import { useFormatNumber } from '../../i18n/format.ts';
import { Button } from '../../ui/Button.tsx';
import { Segmented, SelectField, SwitchField } from '../../ui/controls.tsx';
import { AUDIO_MIX_OPTIONS, COLOR_PALETTES, QUALITY_OPTIONS, sequencesFromScreenplay } from './model.ts';
import { AlertMessage, Section } from './parts.tsx';
import { stopFilmWork } from './runner.ts';
import { useFilm } from './store.ts';
import { filmError } from './text.ts';

const P = FILM_DEFAULTS.production;

function generateSequences(): string | null {
  const { screenplay, concept, production, cinematography, sequences, setSequences, setStep } = useFilm.getState();
  const blocker = sequenceBlocker(screenplay);
  if (blocker || !screenplay) return blocker;
  const next = sequencesFromScreenplay(screenplay, concept, production, cinematography, sequences);
  const kept = new Set(next.map((s) => s.id));
  for (const old of sequences) if (!kept.has(old.id) || next.find((s) => s.id === old.id) !== old) stopFilmWork(old.id);
  setSequences(next);
  setStep(stepAfter('sequences-generated'));
  return null;
}

export function ProductionStep() {
  const { t } = useTranslation();
  const format = useFormatNumber();
  const production = useFilm((s) => s.production);
  const cinematography = useFilm((s) => s.cinematography);
  const patchProduction = useFilm((s) => s.patchProduction);
  const patchCinematography = useFilm((s) => s.patchCinematography);
  const shotCount = useFilm(
    (s) =>
      s.screenplay?.acts.reduce((n, act) => n + act.scenes.reduce((m, scene) => m + scene.shots.length, 0), 0) ?? 0,
  );
  const [blocker, setBlocker] = useState<string | null>(null);

  const onGenerate = () => {
    const message = generateSequences();
    setBlocker(message);
    if (message) toast.error(filmError(message));
    else toast.success(t('film.toast.sequencesReady', { count: shotCount }));
  };

  return (
    <div className="space-y-5">
      <Section title={t('film.production.heading')} description={t('film.production.intro')}>
        <div className="grid grid-cols-[minmax(0,1fr)] gap-5">
          <div className="space-y-1.5">
            <p className="text-xs font-medium text-muted">{t('film.production.resolution')}</p>
            <Segmented
              label={t('film.production.resolution')}
              value={production.resolution}
              onChange={(resolution) => patchProduction({ resolution })}
              options={P.resolutions.map((value) => ({ value, label: value }))}
              testIdPrefix="film-resolution"
            />
          </div>
          <div className="space-y-1.5">
            <p className="text-xs font-medium text-muted">{t('film.production.aspectRatio')}</p>
            <Segmented
              label={t('film.production.aspectRatio')}
              value={production.aspectRatio}
              onChange={(aspectRatio) => patchProduction({ aspectRatio })}
              options={P.aspectRatios.map((value) => ({ value, label: value }))}
              testIdPrefix="film-aspect"
            />
          </div>
          <div className="space-y-1.5">
            <p className="text-xs font-medium text-muted">{t('film.production.fps')}</p>
            <Segmented
              label={t('film.production.fps')}
              value={String(production.fps)}
              onChange={(fps) => patchProduction({ fps: Number(fps) })}
              options={P.fpsOptions.map((value) => ({ value: String(value), label: format(value) }))}
              testIdPrefix="film-fps"
            />
          </div>
          <p className="-mt-2 text-xs leading-snug text-subtle">{t('film.production.renderNote')}</p>
          <div className="grid gap-4 sm:grid-cols-3">
            <SelectField
              label={t('film.production.quality')}
              value={production.quality}
              onChange={(quality) => patchProduction({ quality })}
              options={QUALITY_OPTIONS.map((value) => ({ value, label: t(`film.options.quality.${value}`) }))}
            />
            <SelectField
              label={t('film.production.colorGrading')}
              value={production.colorGrading}
              testId="film-color-grading"
              onChange={(colorGrading) => patchProduction({ colorGrading })}
              options={P.colorGrading.map((value) => ({ value, label: t(`film.options.grading.${value}`) }))}
            />
            <SelectField
              label={t('film.production.audioMix')}
              value={production.audioMix}
              onChange={(audioMix) => patchProduction({ audioMix })}
              options={AUDIO_MIX_OPTIONS.map((value) => ({ value, label: t(`film.options.audioMix.${value}`) }))}
            />
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <SwitchField
              label={t('film.production.subtitles')}
              description={t('film.production.subtitlesHint')}
              checked={production.subtitles}
              onChange={(subtitles) => patchProduction({ subtitles })}
            />
            <SwitchField
              label={t('film.production.closedCaptions')}
              description={t('film.production.closedCaptionsHint')}
              checked={production.closedCaptions}
              onChange={(closedCaptions) => patchProduction({ closedCaptions })}
            />
          </div>
        </div>
      </Section>
      <Section title={t('film.production.cinematography')}>
        <div className="grid gap-4 sm:grid-cols-3">
          <SelectField
            label={t('film.production.cameraType')}
            value={cinematography.cameraType}
            onChange={(cameraType) => patchCinematography({ cameraType })}
            options={P.cameraTypes.map((value) => ({ value, label: t(`film.options.camera.${value}`) }))}
          />
          <SelectField
            label={t('film.production.lightingStyle')}
            value={cinematography.lightingStyle}
            onChange={(lightingStyle) => patchCinematography({ lightingStyle })}
            options={P.lighting.map((value) => ({ value, label: t(`film.options.lighting.${value}`) }))}
          />
          <SelectField
            label={t('film.production.colorPalette')}
            value={cinematography.colorPalette}
            onChange={(colorPalette) => patchCinematography({ colorPalette })}
            options={COLOR_PALETTES.map((value) => ({ value, label: t(`film.options.palette.${value}`) }))}
          />
        </div>
      </Section>
      <Section title={t('film.production.sequencesHeading')} description={t('film.production.sequencesIntro')}>
        <div className="space-y-3">
          <Button size="lg" className="w-full sm:w-auto" onClick={onGenerate} data-testid="film-generate-sequences">
            <Clapperboard className="size-4" aria-hidden />
            {t('film.production.generateSequences')}
          </Button>
          {shotCount > 0 && (
            <p className="text-xs text-muted">{t('film.production.shotCount', { count: shotCount })}</p>
          )}
          {blocker && <AlertMessage testId="film-sequences-blocker">{filmError(blocker)}</AlertMessage>}
        </div>
      </Section>
    </div>
  );
}
