// The Creator tab's state: the typed form and its saved draft, the price of the engines that will serve it, the
// check message, and Generate (from the button, Ctrl/⌘+Enter, or a retry), with "try a different prompt".
import { useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StudioMode } from '../../../common/rules/studio.ts';
import { useMe } from '../../api/auth.ts';
import { useModelEngines } from '../../api/engines.ts';
import { localizeMessage } from '../../i18n/localize.ts';
import { useDraft } from '../../ui/drafts.tsx';
import { creditShortfall } from '../billing/CreditShortfall.tsx';
import { buildRequest, modeInputs, priceFor } from './requests.ts';
import { resetGeneration, retryGeneration, runGeneration } from './runner.ts';
import { emptyStudioDraft, isStudioDraftEmpty, parseStudioDraft, useStudio } from './store.ts';

type StudioSnapshot = Parameters<typeof modeInputs>[1];

// The price of the engines that will serve the form's models, and why one of them cannot be called (a
// model with no vendor configured in production mode): Generate stays off and the reason is shown.
function useEnginePrice(mode: StudioMode, snapshot: StudioSnapshot) {
  const engines = useModelEngines();
  return useMemo(() => {
    let reason: string | null = null;
    const total = priceFor(mode, snapshot, (kind, model) => {
      const served = engines.model(kind, model);
      if (!served.available) reason ??= served.unavailableReason ?? served.label;
      return served.prices;
    });
    return { price: total, unavailable: reason as string | null };
  }, [mode, snapshot, engines]);
}

export function useCreatorGeneration(mode: StudioMode) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
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
  const { price, unavailable } = useEnginePrice(mode, snapshot);
  const loading = generation.phase === 'loading';
  // A paid action the balance cannot cover stays disabled; the bar says how much is missing instead.
  const shortfall = creditShortfall(price, balance);
  const short = shortfall > 0;
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

  const changePrompt = (value: string) => {
    setPrompt(value);
    if (checkText) setCheck(null);
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

  const retry = () => {
    if (!retryGeneration(mode, queryClient)) generate();
  };

  return {
    promptId,
    promptRef,
    formRef,
    resultsRef,
    prompt,
    changePrompt,
    onPromptKeyDown,
    draft,
    info,
    generation,
    balance,
    price,
    unavailable,
    shortfall,
    short,
    loading,
    checkText,
    generate,
    retry,
    tryDifferentPrompt,
    creditsOpen,
    setCreditsOpen,
  };
}
