// Parts the panel and the timeline editor share: the status badge, the Movie Script with its Analyze button,
// and the Export Master Video button with the 'Master Video Ready' box.
import { useQueryClient } from '@tanstack/react-query';
import { Clapperboard, Download, Play, Wand2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  canExportMaster,
  itemsWithoutVideo,
  SEQUENCE_LIMITS,
  type SequenceItemState,
  sequenceItemState,
} from '../../../common/rules/sequences.ts';
import { downloadUrl } from '../../../common/rules/studio.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { inputClass } from '../../ui/Field.tsx';
import { MasterPlayer } from './MasterPlayer.tsx';
import { analyzeWithMovieAgent, exportMasterVideo } from './runner.ts';
import { type SequenceItem, useSequences } from './store.ts';

const stateTone: Record<SequenceItemState, string> = {
  needsVideo: 'border border-dashed border-line-strong text-muted',
  pending: 'bg-surface-3 text-muted',
  generating: 'bg-warning-soft text-warning',
  completed: 'bg-success-soft text-success',
  failed: 'bg-danger-soft text-danger',
  enhanced: 'bg-accent-soft text-accent',
};

/** The item's video state: 'No video yet' until it has one, then its status. */
export function ItemStateBadge({ item }: { item: Pick<SequenceItem, 'videoStatus' | 'videoUrl'> }) {
  const { t } = useTranslation();
  const state = sequenceItemState(item);
  return (
    <span
      className={cn('whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium', stateTone[state])}
      data-testid="sequence-state"
    >
      {t(`sequences.status.${state}`)}
    </span>
  );
}

/** Movie Script textarea and its Analyze button, shared by the panel and the timeline editor. */
export function MovieScriptField({ requireItems = false }: { requireItems?: boolean }) {
  const { t } = useTranslation();
  const movieScript = useSequences((state) => state.movieScript);
  const setMovieScript = useSequences((state) => state.setMovieScript);
  const analyzing = useSequences((state) => state.analyzing);
  const count = useSequences((state) => state.items.length);
  return (
    <div className="space-y-2">
      <label className="text-xs font-medium text-muted" htmlFor={requireItems ? 'timeline-script' : 'movie-script'}>
        {t('sequences.movieScript')}
      </label>
      <textarea
        id={requireItems ? 'timeline-script' : 'movie-script'}
        data-testid={requireItems ? undefined : 'movie-script'}
        value={movieScript}
        onChange={(event) => setMovieScript(event.target.value)}
        placeholder={t('sequences.movieScriptPlaceholder')}
        className={cn(inputClass, 'min-h-24 resize-y py-2 text-sm leading-relaxed')}
      />
      <Button
        size="sm"
        className="w-full"
        loading={analyzing}
        disabled={!movieScript.trim() || (requireItems && count === 0)}
        onClick={() => void analyzeWithMovieAgent()}
        data-testid={requireItems ? 'timeline-movie-agent' : 'movie-agent-analyze'}
      >
        {!analyzing && <Wand2 className="size-4" aria-hidden />}
        {analyzing ? t('sequences.analyzing') : t('sequences.analyze')}
      </Button>
    </div>
  );
}

/** The 'Master Video Ready' box (or the compile progress), shared by the panel and the timeline editor. */
export function MasterSection({ testIds = true }: { testIds?: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const items = useSequences((state) => state.items);
  const master = useSequences((state) => state.master);
  const [playing, setPlaying] = useState(false);
  const exportable = canExportMaster(items);
  const missing = itemsWithoutVideo(items);
  const hintId = testIds ? 'export-needs-videos' : 'timeline-export-needs-videos';
  return (
    <div className="space-y-2">
      <Button
        className="w-full"
        loading={master.isGenerating}
        disabled={!exportable}
        onClick={() => void exportMasterVideo(queryClient)}
        data-testid={testIds ? 'export-master' : 'timeline-export-master'}
        title={exportable ? undefined : t('sequences.exportHint')}
        aria-describedby={missing > 0 ? hintId : undefined}
      >
        {!master.isGenerating && <Clapperboard className="size-4" aria-hidden />}
        {master.isGenerating ? t('sequences.compiling') : t('sequences.exportMaster')}
      </Button>
      {missing > 0 && (
        <p id={hintId} className="text-xs text-muted" data-testid={hintId}>
          {t('sequences.needsVideos', { count: missing })}
        </p>
      )}
      {master.isGenerating && (
        <p className="text-xs text-muted" role="status">
          {t('sequences.compileEstimate', { seconds: SEQUENCE_LIMITS.masterEstimateSeconds })}
        </p>
      )}
      {master.masterVideoUrl && (
        <div
          className="space-y-2 rounded-xl border border-success/40 bg-success-soft p-3"
          data-testid={testIds ? 'master-ready' : undefined}
        >
          <p className="text-sm font-semibold text-success">{t('sequences.masterReady')}</p>
          <p className="text-xs text-muted">
            {t('sequences.masterStats', {
              duration: master.duration ?? SEQUENCE_LIMITS.masterEstimateSeconds,
              count: master.videoCount ?? 0,
            })}
          </p>
          <div className="flex gap-2">
            <Button
              size="sm"
              className="flex-1"
              onClick={() => setPlaying(true)}
              data-testid={testIds ? 'master-play' : undefined}
            >
              <Play className="size-4" aria-hidden />
              {t('sequences.play')}
            </Button>
            <a
              href={downloadUrl(master.masterVideoUrl)}
              download
              className={buttonClass('secondary', 'sm', 'flex-1')}
              data-testid={testIds ? 'master-download' : undefined}
            >
              <Download className="size-4" aria-hidden />
              {t('sequences.download')}
            </a>
          </div>
        </div>
      )}
      {playing && master.masterVideoUrl && (
        <MasterPlayer url={master.masterVideoUrl} onClose={() => setPlaying(false)} />
      )}
    </div>
  );
}
