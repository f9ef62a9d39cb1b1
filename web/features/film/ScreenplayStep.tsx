// Step 3, Screenplay: the agent's three acts (pages), each scene's heading and elements set like a screenplay
// page (action, character cues with dialogue and parentheticals, transitions) and its shot list, plus runtime.
import { Camera, Clock, FileText, Film } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { headingLine } from '../../../common/api/film.ts';
import { useFormatNumber } from '../../i18n/format.ts';
import { cn } from '../../ui/cn.ts';
import type { Screenplay } from './model.ts';
import { GenerateScreenplay, Section } from './parts.tsx';
import { useFilm } from './store.ts';

type Scene = Screenplay['acts'][number]['scenes'][number];
type Element = Scene['elements'][number];

function ScreenplayElement({ element }: { element: Element }) {
  const { t } = useTranslation();
  switch (element.type) {
    case 'dialogue':
      return (
        <div className="mx-auto max-w-sm text-center sm:max-w-md" data-testid="film-element-dialogue">
          <p className="font-semibold uppercase tracking-wide">{element.character || t('film.screenplay.voice')}</p>
          <p className="mt-0.5 text-start sm:text-center">{element.text}</p>
        </div>
      );
    case 'parenthetical': {
      const text = element.text.trim();
      return (
        <p className="mx-auto max-w-xs text-center italic text-muted">{text.startsWith('(') ? text : `(${text})`}</p>
      );
    }
    case 'transition':
      return <p className="text-end font-semibold uppercase tracking-wide">{element.text}</p>;
    default:
      return <p className="leading-relaxed">{element.text}</p>;
  }
}

function SceneCard({ scene }: { scene: Scene }) {
  const { t } = useTranslation();
  const format = useFormatNumber();
  return (
    <article className="overflow-hidden rounded-xl border border-line bg-surface-2/40" data-testid="film-scene">
      <div className="space-y-3 px-4 py-4 font-mono text-[13px] leading-relaxed sm:px-8">
        <h4 className="font-semibold uppercase tracking-wide text-fg" data-testid="film-scene-heading" dir="auto">
          <span className="me-2 text-muted tabular-nums">{scene.number}.</span>
          {headingLine(scene.heading)}
        </h4>
        {scene.description && <p className="text-muted">{scene.description}</p>}
        {(scene.mood || scene.purpose) && (
          <dl className="flex flex-wrap gap-2 font-sans text-xs" data-testid="film-scene-notes">
            {scene.mood && (
              <div className="rounded bg-surface-3 px-2 py-0.5">
                <dt className="inline text-muted">{t('film.screenplay.mood')}: </dt>
                <dd className="inline text-fg">{scene.mood}</dd>
              </div>
            )}
            {scene.purpose && (
              <div className="rounded bg-surface-3 px-2 py-0.5">
                <dt className="inline text-muted">{t('film.screenplay.purpose')}: </dt>
                <dd className="inline text-fg">{scene.purpose}</dd>
              </div>
            )}
          </dl>
        )}
        {scene.elements.map((element, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: elements are read-only and keep their order
          <ScreenplayElement key={index} element={element} />
        ))}
      </div>
      {scene.shots.length > 0 && (
        <div className="border-t border-line bg-surface/60 px-4 py-3 sm:px-5">
          <h5 className="mb-2 flex items-center gap-1.5 text-xs font-semibold uppercase tracking-wide text-muted">
            <Camera className="size-3.5" aria-hidden />
            {t('film.screenplay.shots', { count: scene.shots.length })}
          </h5>
          <ol className="grid gap-2 md:grid-cols-2">
            {scene.shots.map((shot) => (
              <li
                key={shot.id}
                data-testid="film-shot"
                className="rounded-lg border border-line bg-surface-2/60 px-3 py-2 text-sm"
              >
                <div className="flex flex-wrap items-center gap-1.5 text-xs">
                  <span className="font-semibold tabular-nums text-fg">#{shot.index}</span>
                  <span className="rounded bg-accent-soft px-1.5 py-0.5 font-medium text-fg">{shot.shotType}</span>
                  <span className="rounded bg-surface-3 px-1.5 py-0.5 text-muted">{shot.cameraMovement}</span>
                  <span className="ms-auto inline-flex items-center gap-1 text-muted tabular-nums">
                    <Clock className="size-3" aria-hidden />
                    {t('film.seconds', { value: format(shot.duration) })}
                  </span>
                </div>
                <p className="mt-1 text-xs leading-relaxed text-muted">{shot.description}</p>
              </li>
            ))}
          </ol>
        </div>
      )}
    </article>
  );
}

export function ScreenplayStep() {
  const { t } = useTranslation();
  const format = useFormatNumber();
  const screenplay = useFilm((s) => s.screenplay);

  if (!screenplay) {
    return (
      <Section title={t('film.screenplay.heading')}>
        <div
          className="mb-5 flex flex-col items-center rounded-xl border border-dashed border-line-strong px-6 py-10 text-center"
          data-testid="film-screenplay-empty"
        >
          <FileText className="mb-3 size-8 text-subtle" aria-hidden />
          <p className="text-sm font-medium">{t('film.screenplay.emptyTitle')}</p>
          <p className="mt-1 max-w-md text-sm text-muted">{t('film.screenplay.emptyBody')}</p>
        </div>
        <GenerateScreenplay />
      </Section>
    );
  }

  const scenes = screenplay.acts.reduce((n, act) => n + act.scenes.length, 0);
  const shots = screenplay.acts.reduce((n, act) => n + act.scenes.reduce((m, s) => m + s.shots.length, 0), 0);
  const pages = screenplay.acts.reduce((n, act) => n + act.pages, 0);

  return (
    <div className="space-y-5" data-testid="film-screenplay">
      <Section title={screenplay.title} description={screenplay.logline}>
        <dl className="mb-4 grid grid-cols-2 gap-2 sm:grid-cols-4">
          {[
            {
              label: t('film.screenplay.runtime'),
              value: t('film.minutes', { value: format(screenplay.runtimeMinutes) }),
              testId: 'film-runtime',
            },
            { label: t('film.screenplay.pages'), value: format(pages) },
            { label: t('film.screenplay.sceneCount'), value: format(scenes) },
            { label: t('film.screenplay.shotCount'), value: format(shots) },
          ].map((item) => (
            <div key={item.label} className="rounded-lg bg-surface-2 px-3 py-2">
              <dt className="text-xs text-muted">{item.label}</dt>
              <dd className="text-sm font-semibold tabular-nums" data-testid={item.testId}>
                {item.value}
              </dd>
            </div>
          ))}
        </dl>
        {(screenplay.themes?.length > 0 || screenplay.writtenBy) && (
          <p className="mb-4 text-xs text-muted" data-testid="film-themes">
            {screenplay.themes?.length > 0 && (
              <span>
                {t('film.screenplay.themes')}: <span className="text-fg">{screenplay.themes.join(' · ')}</span>
              </span>
            )}
            {screenplay.writtenBy && (
              <span className="ms-3">{t('film.screenplay.writtenBy', { name: screenplay.writtenBy })}</span>
            )}
          </p>
        )}
        <GenerateScreenplay regenerate />
      </Section>
      {screenplay.acts.map((act) => (
        <section key={act.number} className="space-y-3" data-testid="film-act">
          <h3 className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-1">
            <span className="inline-flex items-center gap-2 text-base font-semibold">
              <Film className="size-4 text-accent" aria-hidden />
              {t('film.screenplay.act', { n: act.number })}
              {act.title && <span className="text-muted">— {act.title}</span>}
            </span>
            <span className={cn('text-xs text-muted tabular-nums')}>
              {t('film.screenplay.actPages', { count: act.pages, formatted: format(act.pages) })}
            </span>
          </h3>
          {act.description && <p className="px-1 text-sm text-muted">{act.description}</p>}
          {act.plotPoints?.length > 0 && (
            <div className="px-1" data-testid="film-plot-points">
              <h4 className="text-xs font-semibold uppercase tracking-wide text-muted">
                {t('film.screenplay.plotPoints')}
              </h4>
              <ul className="mt-1 list-disc space-y-0.5 ps-5 text-sm">
                {act.plotPoints.map((point) => (
                  <li key={point}>{point}</li>
                ))}
              </ul>
            </div>
          )}
          {act.scenes.map((scene) => (
            <SceneCard key={scene.id} scene={scene} />
          ))}
        </section>
      ))}
    </div>
  );
}
