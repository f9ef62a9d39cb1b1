import { useQueryClient } from '@tanstack/react-query';
import { AudioLines, CircleAlert, Coins, Image as ImageIcon, Sparkles, Video } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QUALITY_SUFFIX } from '../../../common/api/generation.constants.ts';
import {
  needsQualitySuffix,
  promptWordCount,
  STUDIO_MODES,
  type StudioMode,
  studioAction,
} from '../../../common/rules/studio.ts';
import { useMe } from '../../api/auth.ts';
import { useModelEngines } from '../../api/engines.ts';
import { useActionLabel, useCreditsText, useFormatNumber } from '../../i18n/format.ts';
import { localizeMessage } from '../../i18n/localize.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { Segmented } from '../../ui/controls.tsx';
import { DraftRestoredNote, useDraft } from '../../ui/drafts.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { AssetsGrid } from '../assets/AssetsGrid.tsx';
import { CreditShortfall, creditShortfall } from '../billing/CreditShortfall.tsx';
import { CreditsDialog } from './CreditsDialog.tsx';
import { AudioForm, ImageForm, VideoForm } from './forms.tsx';
import { buildRequest, modeInputs, priceFor } from './requests.ts';
import { ResultsPanel } from './results/ResultsPanel.tsx';
import { resetGeneration, retryGeneration, runGeneration } from './runner.ts';
import { emptyStudioDraft, isStudioDraftEmpty, parseStudioDraft, useStudio } from './store.ts';

const MODE_ICONS = { image: ImageIcon, video: Video, audio: AudioLines } as const;
const PROMPT_MAX = 4000;

/** The Creator tab: image, video and audio modes, the result area, and the media library below. */
export function CreatorTab({ mode, onModeChange }: { mode: StudioMode; onModeChange: (mode: StudioMode) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const format = useFormatNumber();
  const creditsText = useCreditsText();
  const actionLabel = useActionLabel();
  const promptId = useId();
  const promptRef = useRef<HTMLTextAreaElement>(null);
  const [check, setCheck] = useState<{ mode: StudioMode; text: string } | null>(null);
  const [creditsOpen, setCreditsOpen] = useState(false);

  const prompt = useStudio((s) => s.prompt);
  const setPrompt = useStudio((s) => s.setPrompt);
  const image = useStudio((s) => s.image);
  const video = useStudio((s) => s.video);
  const audio = useStudio((s) => s.audio);
  const inputs = useStudio((s) => s.inputs);
  const generation = useStudio((s) => s.generations[mode]);
  const balance = useMe().data?.credits ?? null;
  const setDraft = useStudio((s) => s.setDraft);
  const typed = useMemo(() => ({ prompt, image, video, audio }), [prompt, image, video, audio]);
  const draft = useDraft({
    screen: 'draft.studio',
    value: typed,
    isEmpty: isStudioDraftEmpty,
    parse: parseStudioDraft,
    restore: setDraft,
    reset: () => setDraft(emptyStudioDraft()),
  });

  const snapshot = useMemo(() => ({ prompt, image, video, audio, inputs }), [prompt, image, video, audio, inputs]);
  const info = useMemo(() => modeInputs(mode, snapshot), [mode, snapshot]);
  const engines = useModelEngines();
  // The price of the engines that will serve the form's models, and why one of them cannot be called (a
  // model with no vendor configured in production mode): Generate stays off and the reason is shown.
  const { price, unavailable } = useMemo(() => {
    let reason: string | null = null;
    const total = priceFor(mode, snapshot, (kind, model) => {
      const served = engines.model(kind, model);
      if (!served.available) reason ??= served.unavailableReason ?? served.label;
      return served.prices;
    });
    return { price: total, unavailable: reason as string | null };
  }, [mode, snapshot, engines]);
  const loading = generation.phase === 'loading';
  // A paid action the balance cannot cover stays disabled; the bar says how much is missing instead.
  const shortfall = creditShortfall(price, balance);
  const short = shortfall > 0;
  const suffixed = mode !== 'audio' && needsQualitySuffix(prompt);
  const words = promptWordCount(prompt);
  const checkText = check?.mode === mode ? check.text : null;
  const resultsRef = useRef<HTMLElement>(null);
  const formRef = useRef<HTMLElement>(null);

  // A check message is about the form as it was: any change to the inputs clears it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: inputs and params are the triggers
  useEffect(() => setCheck(null), [inputs, image, video, audio]);

  const generate = () => {
    if (short || unavailable) return;
    const built = buildRequest(mode, useStudio.getState());
    if (!built.ok) {
      setCheck({ mode, text: built.i18nKey ? t(built.i18nKey) : localizeMessage(built.message) });
      if (built.i18nKey === 'studio.checks.promptRequired') promptRef.current?.focus();
      return;
    }
    setCheck(null);
    void runGeneration(built, queryClient);
    draft.clear();
    // When the result sits under the form (narrow screens, or a side tool open) bring it into view.
    const form = formRef.current?.getBoundingClientRect();
    const result = resultsRef.current?.getBoundingClientRect();
    if (form && result && result.top >= form.bottom - 1) {
      requestAnimationFrame(() => resultsRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }));
    }
  };

  const onPromptKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey) && !loading && !short && !unavailable) {
      event.preventDefault();
      generate();
    }
  };

  const tryDifferentPrompt = () => {
    resetGeneration(mode);
    requestAnimationFrame(() => {
      promptRef.current?.focus();
      promptRef.current?.select();
    });
  };

  return (
    // Form and result side by side once the tab itself (not the window) is wide enough: an open side tool
    // narrows it, and the result then moves under the form instead of squeezing it.
    <div className="@container space-y-8">
      {/* The result is the main column: wider than the form once there is room for both. */}
      <div className="grid gap-5 @3xl:grid-cols-[minmax(20rem,2fr)_minmax(0,3fr)] @5xl:grid-cols-[26rem_minmax(0,1fr)]">
        <section
          ref={formRef}
          aria-label={t('studio.creator.formLabel')}
          data-testid="creator-form"
          className="min-w-0 space-y-5 rounded-2xl border border-line bg-surface p-4 sm:p-5"
        >
          <Segmented
            label={t('studio.creator.modeLabel')}
            value={mode}
            onChange={onModeChange}
            options={STUDIO_MODES.map((value) => {
              const Icon = MODE_ICONS[value];
              return { value, label: t(`studio.modes.${value}`), icon: <Icon className="size-4" aria-hidden /> };
            })}
            testIdPrefix="studio-mode"
            layout="fill"
          />

          <DraftRestoredNote draft={draft} testId="studio-draft-restored" />
          <div className="space-y-1.5">
            <div className="flex items-center justify-between gap-2">
              <label htmlFor={promptId} className="text-sm font-medium text-fg">
                {t('studio.prompt.label')}
              </label>
              <span className="text-xs tabular-nums text-subtle">{t('studio.prompt.words', { count: words })}</span>
            </div>
            <textarea
              id={promptId}
              ref={promptRef}
              data-testid="prompt-input"
              value={prompt}
              maxLength={PROMPT_MAX}
              onChange={(event) => {
                setPrompt(event.target.value);
                if (checkText) setCheck(null);
              }}
              onKeyDown={onPromptKeyDown}
              placeholder={t(`studio.prompt.placeholder.${mode}`)}
              aria-describedby={`${promptId}-hint`}
              className={cn(inputClass, 'min-h-28 resize-y py-2.5 leading-relaxed')}
              rows={4}
            />
            <p
              id={`${promptId}-hint`}
              className="flex items-start gap-1.5 text-xs leading-snug text-subtle"
              data-testid="quality-suffix-hint"
              data-active={suffixed}
            >
              <Sparkles className={cn('mt-px size-3 shrink-0', suffixed ? 'text-accent' : 'text-subtle')} aria-hidden />
              {mode === 'audio'
                ? t('studio.prompt.audioHint')
                : suffixed
                  ? t('studio.prompt.suffixWillBeAdded', { suffix: QUALITY_SUFFIX.replace(/^,\s*/, '') })
                  : t('studio.prompt.suffixRule')}
            </p>
          </div>

          {mode === 'image' && <ImageForm info={info} />}
          {mode === 'video' && <VideoForm info={info} />}
          {mode === 'audio' && <AudioForm />}

          {/* The action bar stays in view while the form scrolls (above the phone's tab bar). */}
          <div
            data-testid="generate-bar"
            className="sticky bottom-[calc(4rem+env(safe-area-inset-bottom))] z-10 -mx-4 -mb-4 space-y-2.5 rounded-b-2xl border-t border-line bg-surface/95 px-4 py-3 backdrop-blur-md sm:-mx-5 sm:-mb-5 sm:px-5 md:bottom-0"
          >
            {checkText && (
              <p
                role="alert"
                data-testid="generate-check"
                className="flex items-start gap-2 rounded-lg border border-danger/30 bg-danger-soft px-3 py-2 text-sm text-danger"
              >
                <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
                {checkText}
              </p>
            )}
            {unavailable && (
              <p
                id="studio-unavailable"
                role="status"
                data-testid="studio-unavailable"
                className="flex items-start gap-2 rounded-lg border border-line-strong bg-surface-2 px-3 py-2 text-sm text-fg"
              >
                <CircleAlert className="mt-0.5 size-4 shrink-0 text-danger" aria-hidden />
                {unavailable}
              </p>
            )}
            {short && !unavailable && (
              <CreditShortfall
                shortfall={shortfall}
                balance={balance}
                onAddCredits={() => setCreditsOpen(true)}
                testId="studio-shortfall"
              />
            )}
            <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
              <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                <span
                  data-testid="price-tag"
                  data-credits={price}
                  className="inline-flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded-full border border-accent/30 bg-accent-soft px-2.5 py-1 font-semibold text-fg"
                  title={t('studio.price.costTitle')}
                >
                  <Coins className="size-4 text-accent" aria-hidden />
                  <span className="sr-only">{t('studio.price.cost')}: </span>
                  {creditsText(price)}
                </span>
                <span className="whitespace-nowrap text-xs text-muted" data-testid="studio-balance">
                  {t('studio.price.balanceShort', { formatted: balance === null ? '—' : format(balance) })}
                </span>
              </div>
              <Button
                size="lg"
                onClick={generate}
                loading={loading}
                disabled={short || unavailable !== null}
                aria-describedby={unavailable ? 'studio-unavailable' : short ? 'studio-shortfall-message' : undefined}
                data-testid="generate-button"
                className="w-full @md:w-auto"
              >
                {!loading && <Sparkles className="size-4" aria-hidden />}
                {actionLabel(studioAction('creator', mode), loading)}
              </Button>
            </div>
          </div>
        </section>

        <section
          ref={resultsRef}
          aria-label={t('studio.results.label')}
          data-testid="creator-result"
          className="flex min-w-0 scroll-mt-20 flex-col rounded-2xl border border-line bg-surface p-4 sm:p-5 @3xl:sticky @3xl:top-[4.5rem] @3xl:max-h-[calc(100dvh-5.5rem)] @3xl:self-start @3xl:overflow-y-auto"
        >
          <h2 className="mb-4 text-sm font-semibold text-muted">{t('studio.results.title')}</h2>
          <div className="flex flex-1">
            <ResultsPanel
              mode={mode}
              generation={generation}
              price={price}
              balance={balance}
              onTryDifferentPrompt={tryDifferentPrompt}
              onAddCredits={() => setCreditsOpen(true)}
              onRetry={() => {
                if (!retryGeneration(mode, queryClient)) generate();
              }}
              onMakeVideo={() => {
                onModeChange('video');
                requestAnimationFrame(() => promptRef.current?.focus());
              }}
            />
          </div>
        </section>
      </div>

      <AssetsGrid />
      <CreditsDialog
        open={creditsOpen}
        onOpenChange={setCreditsOpen}
        balance={balance}
        shortfall={short ? shortfall : undefined}
      />
    </div>
  );
}
