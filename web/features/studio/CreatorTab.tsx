import { AudioLines, Image as ImageIcon, Video } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { STUDIO_MODES, type StudioMode } from '../../../common/rules/studio.ts';
import { Segmented } from '../../ui/controls.tsx';
import { DraftRestoredNote } from '../../ui/drafts.tsx';
import { AssetsGrid } from '../assets/AssetsGrid.tsx';
import { CreditsDialog } from './CreditsDialog.tsx';
import { AudioForm, ImageForm, VideoForm } from './forms.tsx';
import { GenerateBar } from './GenerateBar.tsx';
import { PromptField } from './PromptField.tsx';
import { ResultsPanel } from './results/ResultsPanel.tsx';
import { useCreatorGeneration } from './useCreatorGeneration.ts';

const MODE_ICONS = { image: ImageIcon, video: Video, audio: AudioLines } as const;

/** The Creator tab: image, video and audio modes, the result area, and the media library below. */
export function CreatorTab({ mode, onModeChange }: { mode: StudioMode; onModeChange: (mode: StudioMode) => void }) {
  const { t } = useTranslation();
  const creator = useCreatorGeneration(mode);
  const { promptRef, info, balance, price, short, shortfall, setCreditsOpen } = creator;

  return (
    // Form and result side by side once the tab itself (not the window) is wide enough: an open side tool
    // narrows it, and the result then moves under the form instead of squeezing it.
    <div className="@container space-y-8">
      {/* The result is the main column: wider than the form once there is room for both. */}
      <div className="grid gap-5 @3xl:grid-cols-[minmax(20rem,2fr)_minmax(0,3fr)] @5xl:grid-cols-[26rem_minmax(0,1fr)]">
        <section
          ref={creator.formRef}
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

          <DraftRestoredNote draft={creator.draft} testId="studio-draft-restored" />
          <PromptField
            id={creator.promptId}
            inputRef={promptRef}
            mode={mode}
            prompt={creator.prompt}
            onChange={creator.changePrompt}
            onKeyDown={creator.onPromptKeyDown}
          />

          {mode === 'image' && <ImageForm info={info} />}
          {mode === 'video' && <VideoForm info={info} />}
          {mode === 'audio' && <AudioForm />}

          {/* The action bar stays in view while the form scrolls (above the phone's tab bar). */}
          <GenerateBar
            mode={mode}
            checkText={creator.checkText}
            unavailable={creator.unavailable}
            shortfall={shortfall}
            balance={balance}
            price={price}
            loading={creator.loading}
            onGenerate={creator.generate}
            onAddCredits={() => setCreditsOpen(true)}
          />
        </section>

        <section
          ref={creator.resultsRef}
          aria-label={t('studio.results.label')}
          data-testid="creator-result"
          className="flex min-w-0 scroll-mt-20 flex-col rounded-2xl border border-line bg-surface p-4 sm:p-5 @3xl:sticky @3xl:top-[4.5rem] @3xl:max-h-[calc(100dvh-5.5rem)] @3xl:self-start @3xl:overflow-y-auto"
        >
          <h2 className="mb-4 text-sm font-semibold text-muted">{t('studio.results.title')}</h2>
          <div className="flex flex-1">
            <ResultsPanel
              mode={mode}
              generation={creator.generation}
              price={price}
              balance={balance}
              onTryDifferentPrompt={creator.tryDifferentPrompt}
              onAddCredits={() => setCreditsOpen(true)}
              onRetry={creator.retry}
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
        open={creator.creditsOpen}
        onOpenChange={setCreditsOpen}
        balance={balance}
        shortfall={short ? shortfall : undefined}
      />
    </div>
  );
}
