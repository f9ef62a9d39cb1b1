// Step 1, Concept (canvas spec 3 "Film concept"): title, description, genre, tone, target duration (60–180
// minutes), theme, logline and setting.
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FILM_DEFAULTS, FILM_GENRES, FILM_MESSAGES, FILM_TONES } from '../../../common/rules/film.ts';
import { cn } from '../../ui/cn.ts';
import { labelClass, SelectField } from '../../ui/controls.tsx';
import { inputClass, TextAreaField, TextField } from '../../ui/Field.tsx';
import { Section } from './parts.tsx';
import { useFilm } from './store.ts';
import { filmError } from './text.ts';

function DurationField() {
  const { t } = useTranslation();
  const value = useFilm((s) => s.concept.targetDuration);
  const patchConcept = useFilm((s) => s.patchConcept);
  const [text, setText] = useState(String(value));
  const id = useId();
  // A reset or a reload changes the stored value under the field.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the stored value changes
  useEffect(() => {
    if (Number(text) !== value) setText(String(value));
  }, [value]);
  const parsed = Number(text);
  const valid =
    text.trim() !== '' &&
    Number.isFinite(parsed) &&
    parsed >= FILM_DEFAULTS.minTargetDuration &&
    parsed <= FILM_DEFAULTS.maxTargetDuration;
  const error = valid ? undefined : filmError(FILM_MESSAGES.targetDurationRange);
  return (
    <div className="min-w-0 space-y-1.5">
      <label htmlFor={id} className={labelClass}>
        {t('film.concept.targetDuration')}
      </label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={FILM_DEFAULTS.minTargetDuration}
        max={FILM_DEFAULTS.maxTargetDuration}
        step={1}
        value={text}
        data-testid="film-target-duration"
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-note`}
        className={cn(inputClass, 'h-10 tabular-nums')}
        onChange={(event) => {
          setText(event.target.value);
          const next = Number(event.target.value);
          if (Number.isFinite(next) && event.target.value.trim() !== '')
            patchConcept({ targetDuration: Math.round(next) });
        }}
      />
      <p
        id={`${id}-note`}
        className={cn('text-xs leading-snug', error ? 'text-danger' : 'text-subtle')}
        data-testid={error ? 'film-target-duration-error' : undefined}
      >
        {error ??
          t('film.concept.targetDurationHint', {
            min: FILM_DEFAULTS.minTargetDuration,
            max: FILM_DEFAULTS.maxTargetDuration,
          })}
      </p>
    </div>
  );
}

export function ConceptStep() {
  const { t } = useTranslation();
  const concept = useFilm((s) => s.concept);
  const patchConcept = useFilm((s) => s.patchConcept);
  const patchSetting = useFilm((s) => s.patchSetting);
  return (
    <div className="space-y-5">
      <Section title={t('film.concept.heading')} description={t('film.concept.intro')}>
        <div className="grid gap-4">
          <TextField
            label={t('film.concept.title')}
            value={concept.title}
            maxLength={200}
            required
            placeholder={t('film.concept.titlePlaceholder')}
            data-testid="film-concept-title"
            onChange={(event) => patchConcept({ title: event.target.value })}
          />
          <TextAreaField
            label={t('film.concept.description')}
            value={concept.description}
            maxLength={5000}
            required
            className="min-h-28"
            placeholder={t('film.concept.descriptionPlaceholder')}
            data-testid="film-concept-description"
            onChange={(event) => patchConcept({ description: event.target.value })}
          />
          <div className="grid gap-4 sm:grid-cols-3">
            <SelectField
              label={t('film.concept.genre')}
              value={concept.genre}
              testId="film-concept-genre"
              onChange={(genre) => patchConcept({ genre })}
              options={FILM_GENRES.map((value) => ({ value, label: t(`film.options.genre.${value}`) }))}
            />
            <SelectField
              label={t('film.concept.tone')}
              value={concept.tone}
              testId="film-concept-tone"
              onChange={(tone) => patchConcept({ tone })}
              options={FILM_TONES.map((value) => ({ value, label: t(`film.options.tone.${value}`) }))}
            />
            <DurationField />
          </div>
          <TextField
            label={t('film.concept.theme')}
            value={concept.theme}
            maxLength={500}
            placeholder={t('film.concept.themePlaceholder')}
            onChange={(event) => patchConcept({ theme: event.target.value })}
          />
          <TextAreaField
            label={t('film.concept.logline')}
            value={concept.logline}
            maxLength={1000}
            className="min-h-20"
            placeholder={t('film.concept.loglinePlaceholder')}
            onChange={(event) => patchConcept({ logline: event.target.value })}
          />
        </div>
      </Section>
      <Section title={t('film.concept.setting')}>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t('film.concept.timeperiod')}
            value={concept.setting.timeperiod}
            maxLength={200}
            placeholder={t('film.concept.timeperiodPlaceholder')}
            onChange={(event) => patchSetting({ timeperiod: event.target.value })}
          />
          <TextField
            label={t('film.concept.location')}
            value={concept.setting.location}
            maxLength={200}
            placeholder={t('film.concept.locationPlaceholder')}
            onChange={(event) => patchSetting({ location: event.target.value })}
          />
          <div className="sm:col-span-2">
            <TextAreaField
              label={t('film.concept.world')}
              value={concept.setting.world}
              maxLength={1000}
              className="min-h-20"
              placeholder={t('film.concept.worldPlaceholder')}
              onChange={(event) => patchSetting({ world: event.target.value })}
            />
          </div>
        </div>
      </Section>
    </div>
  );
}
