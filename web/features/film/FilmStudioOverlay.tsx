// The Film Production Studio (canvas spec 2): a full-screen five-step wizard — Concept, Characters,
// Screenplay, Production, Review — over the Creation Studio. Loaded lazily when the URL says ?film=1.
import { useQueryClient } from '@tanstack/react-query';
import { Check, ChevronLeft, ChevronRight, Clapperboard, FilePlus2, X } from 'lucide-react';
import { type KeyboardEvent, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { FILM_WIZARD_STEPS, type FilmWizardStep } from '../../../common/rules/film.ts';
import { useSession } from '../../api/session.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmPopup } from '../../ui/ConfirmPopup.tsx';
import { cn } from '../../ui/cn.ts';
import { CharactersStep } from './CharactersStep.tsx';
import { ConceptStep } from './ConceptStep.tsx';
import { ProductionStep } from './ProductionStep.tsx';
import { ReviewStep } from './ReviewStep.tsx';
import { bindFilmQueryClient, openFilmFor, stopFilmWork } from './runner.ts';
import { ScreenplayStep } from './ScreenplayStep.tsx';
import { clearScreenplayError } from './screenplay.ts';
import { useFilm } from './store.ts';

function NewFilmButton() {
  const { t } = useTranslation();
  const reset = () => {
    stopFilmWork();
    clearScreenplayError();
    useFilm.getState().reset();
  };
  return (
    <ConfirmPopup
      trigger={
        <Button variant="ghost" size="sm" data-testid="film-new">
          <FilePlus2 className="size-4" aria-hidden />
          <span className="hidden sm:inline">{t('film.newFilm')}</span>
          <span className="sr-only sm:hidden">{t('film.newFilm')}</span>
        </Button>
      }
      title={t('film.newConfirmTitle')}
      body={t('film.newConfirmBody')}
      cancelLabel={t('film.cancel')}
      confirmLabel={t('film.newFilm')}
      onConfirm={reset}
      testId="film-new-confirm"
      confirmTestId="film-new-ok"
      layerClassName="z-[60]"
    />
  );
}

/** What is done on each step, for the check marks in the step headers. */
function useStepDone(): Record<FilmWizardStep, boolean> {
  const concept = useFilm((s) => Boolean(s.concept.title.trim() && s.concept.description.trim()));
  const characters = useFilm((s) => s.characters.length > 0);
  const screenplay = useFilm((s) => s.screenplay !== null);
  const production = useFilm((s) => s.sequences.length > 0);
  const review = useFilm((s) => s.sequences.length > 0 && s.sequences.every((q) => q.status === 'completed'));
  return { concept, characters, screenplay, production, review };
}

function StepHeaders() {
  const { t } = useTranslation();
  const step = useFilm((s) => s.step);
  const setStep = useFilm((s) => s.setStep);
  const done = useStepDone();
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const current = FILM_WIZARD_STEPS.indexOf(step);

  // Arrow keys move between the step headers (reversed in right-to-left), Home and End jump to the ends.
  const onKeyDown = (event: KeyboardEvent<HTMLOListElement>) => {
    const rtl = document.documentElement.dir === 'rtl';
    const index = refs.current.indexOf(document.activeElement as HTMLButtonElement);
    if (index < 0) return;
    let next = index;
    if (event.key === (rtl ? 'ArrowLeft' : 'ArrowRight')) next = Math.min(FILM_WIZARD_STEPS.length - 1, index + 1);
    else if (event.key === (rtl ? 'ArrowRight' : 'ArrowLeft')) next = Math.max(0, index - 1);
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = FILM_WIZARD_STEPS.length - 1;
    else return;
    event.preventDefault();
    refs.current[next]?.focus();
  };

  return (
    <nav aria-label={t('film.stepsLabel')} className="border-b border-line bg-surface/60">
      <ol onKeyDown={onKeyDown} className="mx-auto flex max-w-6xl gap-1 overflow-x-auto px-3 py-2 sm:px-6">
        {FILM_WIZARD_STEPS.map((name, index) => {
          const active = name === step;
          return (
            <li key={name} className="shrink-0">
              <button
                ref={(el) => {
                  refs.current[index] = el;
                }}
                type="button"
                data-testid={`film-step-${name}`}
                aria-current={active ? 'step' : undefined}
                onClick={() => setStep(name)}
                className={cn(
                  'flex items-center gap-2 rounded-lg px-2.5 py-1.5 text-sm font-medium transition-colors',
                  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
                  active ? 'bg-accent-soft text-fg' : 'text-muted hover:bg-surface-2 hover:text-fg',
                )}
              >
                <span
                  className={cn(
                    'grid size-6 place-items-center rounded-full text-xs font-semibold tabular-nums',
                    active
                      ? 'bg-accent text-accent-fg'
                      : done[name]
                        ? 'bg-success-soft text-success'
                        : 'bg-surface-3 text-muted',
                  )}
                  aria-hidden
                >
                  {done[name] && !active ? <Check className="size-3.5" /> : index + 1}
                </span>
                <span className={cn(!active && index !== current && 'max-sm:sr-only')}>{t(`film.steps.${name}`)}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/** The Film Production Studio overlay; `onClose` removes ?film=1. */
export default function FilmStudioOverlay({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const userId = useSession((s) => s.storedUser?.id ?? null);
  const ownerId = useFilm((s) => s.ownerId);
  const step = useFilm((s) => s.step);
  const setStep = useFilm((s) => s.setStep);
  const bodyRef = useRef<HTMLDivElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const index = FILM_WIZARD_STEPS.indexOf(step);

  useEffect(() => {
    bindFilmQueryClient(queryClient);
  }, [queryClient]);

  // Keyboard users start inside the overlay, not on the button behind it.
  useEffect(() => {
    rootRef.current?.focus();
  }, []);

  useEffect(() => {
    if (userId) openFilmFor(userId);
  }, [userId]);

  // Each step starts at its top.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the step changes
  useEffect(() => {
    bodyRef.current?.scrollTo({ top: 0 });
  }, [step]);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (document.querySelector('[role="alertdialog"]')) return;
      onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const go = (next: number) => {
    const name = FILM_WIZARD_STEPS[next];
    if (name) setStep(name);
  };

  return (
    <div
      ref={rootRef}
      tabIndex={-1}
      role="dialog"
      aria-modal="true"
      aria-labelledby="film-studio-title"
      data-testid="film-studio"
      data-step={step}
      className="fixed inset-0 z-40 flex flex-col bg-bg text-fg focus:outline-none"
    >
      <header className="flex h-14 shrink-0 items-center gap-3 border-b border-line bg-surface px-3 sm:px-6">
        <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-accent-soft text-accent">
          <Clapperboard className="size-4.5" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <h1 id="film-studio-title" className="truncate text-sm font-semibold sm:text-base">
            {t('film.title')}
          </h1>
          <p className="text-xs text-muted tabular-nums" data-testid="film-step-label" aria-live="polite">
            {t('film.stepOf', { n: index + 1, total: FILM_WIZARD_STEPS.length })}
          </p>
        </div>
        <NewFilmButton />
        <Button variant="ghost" size="sm" onClick={onClose} data-testid="film-close" aria-label={t('film.close')}>
          <X className="size-4" aria-hidden />
          <span className="hidden sm:inline">{t('film.close')}</span>
        </Button>
      </header>
      <StepHeaders />
      <div ref={bodyRef} className="min-h-0 flex-1 overflow-y-auto">
        {/* Not a <main>: the overlay sits above the dashboard, whose <main> stays the page's one. */}
        {/* Example text in the fields reads as an example (italic where the script has it), not as a value. */}
        <div
          className="mx-auto w-full max-w-6xl px-3 py-5 sm:px-6 sm:py-6 ltr:[&_::placeholder]:italic"
          data-testid={`film-panel-${step}`}
        >
          {!ownerId ? (
            <p role="status" className="py-16 text-center text-sm text-muted">
              {t('film.loading')}
            </p>
          ) : step === 'concept' ? (
            <ConceptStep />
          ) : step === 'characters' ? (
            <CharactersStep />
          ) : step === 'screenplay' ? (
            <ScreenplayStep />
          ) : step === 'production' ? (
            <ProductionStep />
          ) : (
            <ReviewStep />
          )}
        </div>
      </div>
      <footer className="flex shrink-0 items-center justify-between gap-3 border-t border-line bg-surface px-3 py-2.5 sm:px-6">
        <Button variant="secondary" onClick={() => go(index - 1)} disabled={index === 0} data-testid="film-prev">
          <ChevronLeft className="size-4 rtl:rotate-180" aria-hidden />
          {t('film.previous')}
        </Button>
        <span className="text-xs text-muted tabular-nums sm:hidden" aria-hidden>
          {index + 1} / {FILM_WIZARD_STEPS.length}
        </span>
        <Button onClick={() => go(index + 1)} disabled={index === FILM_WIZARD_STEPS.length - 1} data-testid="film-next">
          {t('film.next')}
          <ChevronRight className="size-4 rtl:rotate-180" aria-hidden />
        </Button>
      </footer>
    </div>
  );
}
