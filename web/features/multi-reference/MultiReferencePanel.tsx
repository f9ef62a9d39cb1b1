import { Layers } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useStore } from 'zustand';
import { MULTI_REFERENCE } from '../../../common/api/multi-reference.constants.ts';
import { usePrice } from '../../api/engines.ts';
import { ToolPanelLayout } from '../../ui/ToolPanelLayout.tsx';
import { useCreditGuard } from '../billing/CreditShortfall.tsx';
import { useCanvas } from '../canvas/store.ts';
import { useSessionParticipant } from '../editor-sessions/registry.ts';
import { imageThumbnail } from '../multi-composition/images.ts';
import { BlendForm, GenerateActions } from './BlendForm.tsx';
import { ModeSwitch, ReferenceList, ReferenceRules, ReferenceUploader } from './ReferenceInputs.tsx';
import { ResultList } from './ResultList.tsx';
import { captureMultiReferenceSession, type MultiReferenceResult, parseMultiReferenceSession } from './session.ts';
import { createMultiReferenceStore } from './store.ts';

// The Multi-Reference side tool (canvas spec 2, 5, 7, 9): up to 8 weighted references, blend
// settings, prompt; Generate calls the server once per variation. Two modes: image (a blend into an
// image) and video-to-video (the first video reference restyled by the images; videos mp4, mov, webm,
// avi and images up to 100 MB), whose result is a playable video.

type Result = MultiReferenceResult;

export function MultiReferencePanel({ onClose, layout = 'panel' }: { onClose?: () => void; layout?: 'panel' | 'tab' }) {
  const { t } = useTranslation();
  const [, setParams] = useSearchParams();
  const addImage = useCanvas((s) => s.addImage);
  const [store] = useState(createMultiReferenceStore);
  const {
    mode,
    refs,
    prompt,
    styleModifier,
    negativePrompt,
    blendMode,
    strength,
    variations,
    aspectRatio,
    quality,
    compositionMode,
    preserveDetails,
    busy,
    results,
  } = useStore(store);
  const pricePerImage = usePrice('image', MULTI_REFERENCE.model, 'multiReference');
  const pricePerVideo = usePrice('video', MULTI_REFERENCE.videoToVideo.model, 'videoRunway');
  const { balance, shortfall } = useCreditGuard(
    (mode === 'video-to-video' ? pricePerVideo : pricePerImage) * variations,
  );

  useSessionParticipant('multi-reference', {
    capture: () =>
      captureMultiReferenceSession({
        mode,
        referenceImages: refs.map((r) => ({
          id: r.id,
          url: r.url,
          filename: r.name,
          weight: r.weight,
          type: r.type,
          description: r.description,
          mediaType: r.mediaType,
        })),
        prompt,
        styleModifier,
        negativePrompt,
        blendSettings: { blendMode, strength, variations, aspectRatio, quality, compositionMode, preserveDetails },
        results,
      }) as Record<string, unknown> | null,
    restore: (data) => store.getState().restore(parseMultiReferenceSession(data)),
    thumbnail: () => imageThumbnail(refs[0]?.url ?? results[0]?.url),
  });

  function openInCanvas(result: Result) {
    if (result.mediaType === 'video') return;
    addImage({
      url: result.url,
      thumbnailUrl: null,
      name: `multi-reference-${result.variation}`,
      prompt,
      assetId: result.id ?? undefined,
    });
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('canvas', '1');
      return next;
    });
  }

  const tab = layout === 'tab';
  const modeSwitch = <ModeSwitch store={store} />;
  const rules = <ReferenceRules store={store} />;
  const uploader = <ReferenceUploader store={store} />;
  const references = <ReferenceList store={store} tab={tab} />;
  const form = <BlendForm store={store} />;
  const actions = (
    <GenerateActions
      store={store}
      balance={balance}
      shortfall={shortfall}
      pricePerImage={pricePerImage}
      pricePerVideo={pricePerVideo}
    />
  );
  const resultList = <ResultList store={store} onOpenInCanvas={openInCanvas} />;

  return (
    <ToolPanelLayout
      testId="multi-reference"
      icon={Layers}
      title={t('multiReference.title')}
      description={t('multiReference.description')}
      onClose={onClose}
      busy={busy}
      tab={tab}
      main={
        <div className="min-w-0 flex-1 space-y-4">
          <div className="space-y-3 rounded-2xl border border-line bg-surface p-4">
            {modeSwitch}
            {rules}
            {uploader}
            {refs.length > 0 && <div className="grid gap-2 sm:grid-cols-2 xl:grid-cols-3">{references}</div>}
          </div>
          {results.length > 0 && <div className="grid gap-3 sm:grid-cols-2">{resultList}</div>}
        </div>
      }
      side={
        <>
          {form}
          {actions}
        </>
      }
      panel={
        <>
          {modeSwitch}
          {rules}
          {uploader}
          {references}
          {form}
          {actions}
          {resultList}
        </>
      }
    />
  );
}
