// The full-screen timeline editor (canvas spec 2, 4, 5): sequence cards, a drag-to-reorder strip (@dnd-kit,
// pointer and keyboard), the professional timeline (a time ruler at the zoom's px/s, 10–50 in steps of 5; the
// clips end to end on one track with their thumbnails, whose start / end handles and body trim each clip to
// 1–8 s; a playhead), Play Timeline in one <video>, Movie Agent Analysis and the master video.
import { X, ZoomIn, ZoomOut } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEQUENCE_LIMITS, stepTimelineZoom } from '../../../common/rules/sequences.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { useDir } from '../../ui/controls.tsx';
import { AnalysisView } from './AnalysisView.tsx';
import { ClipCutFields } from './ClipCutFields.tsx';
import { ReorderStrip } from './ReorderStrip.tsx';
import { ItemStateBadge, MasterSection, MovieScriptField } from './sections.tsx';
import { useSequences } from './store.ts';
import { TimelineTrack } from './TimelineTrack.tsx';
import { PlayButton, TimelineVideo } from './TimelineVideo.tsx';
import { clipThumbnail } from './timeline.ts';
import { usePlayhead, useTimelinePlayback } from './timelinePlayback.ts';

const sectionTitle = 'text-xs font-semibold uppercase tracking-wide text-muted';

export default function TimelineEditor({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const dir = useDir();
  const items = useSequences((state) => state.items);
  const [pps, setPps] = useState<number>(SEQUENCE_LIMITS.defaultPxPerSecond);
  const playback = useTimelinePlayback(items);
  useEffect(() => {
    usePlayhead.getState().set(0);
  }, []);

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Content
          dir={dir}
          aria-describedby={undefined}
          data-testid="timeline-editor"
          className="fixed inset-0 z-50 flex flex-col bg-bg text-fg outline-none"
        >
          <header className="flex h-14 shrink-0 items-center gap-2 border-b border-line bg-surface px-3 sm:px-5">
            <Dialog.Title className="min-w-0 flex-1 truncate text-sm font-semibold">
              {t('sequences.timelineTitle')}
            </Dialog.Title>
            <Dialog.Close
              className="grid size-9 place-items-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
              aria-label={t('common.close')}
              data-testid="timeline-close"
            >
              <X className="size-5" aria-hidden />
            </Dialog.Close>
          </header>
          <div className="min-h-0 flex-1 overflow-y-auto">
            <div className="mx-auto grid max-w-7xl gap-6 p-3 sm:p-5 lg:grid-cols-[1fr_20rem]">
              <div className="min-w-0 space-y-6">
                <section className="space-y-2" aria-labelledby="tl-cards">
                  <h3 id="tl-cards" className={sectionTitle}>
                    {t('sequences.cards')}
                  </h3>
                  {items.length === 0 ? (
                    <p className="text-xs text-muted">{t('sequences.empty')}</p>
                  ) : (
                    <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2 xl:grid-cols-3">
                      {items.map((item, index) => (
                        <li key={item.id} className="flex gap-2 rounded-xl border border-line bg-surface p-2">
                          <img
                            src={clipThumbnail(item)}
                            alt=""
                            loading="lazy"
                            className="size-14 shrink-0 rounded-md object-cover"
                          />
                          <div className="min-w-0 space-y-1">
                            <div className="flex items-center gap-1.5">
                              <span className="text-xs font-semibold">{index + 1}</span>
                              <ItemStateBadge item={item} />
                            </div>
                            <p className="line-clamp-2 text-xs text-muted">{item.moviePrompt || item.prompt}</p>
                          </div>
                        </li>
                      ))}
                    </ul>
                  )}
                </section>

                <section className="space-y-2" aria-labelledby="tl-strip">
                  <h3 id="tl-strip" className={sectionTitle}>
                    {t('sequences.reorderStrip')}
                  </h3>
                  <p className="text-xs text-subtle">{t('sequences.reorderHint')}</p>
                  <ReorderStrip items={items} />
                </section>

                <section className="space-y-3" aria-labelledby="tl-pro">
                  <div className="flex flex-wrap items-center gap-2">
                    <h3 id="tl-pro" className={cn(sectionTitle, 'me-auto')}>
                      {t('sequences.timeline')}
                    </h3>
                    <div className="flex items-center gap-2">
                      <PlayButton playback={playback} />
                      <Button
                        variant="secondary"
                        size="sm"
                        aria-label={t('sequences.zoomOut')}
                        disabled={pps <= SEQUENCE_LIMITS.minPxPerSecond}
                        onClick={() => setPps((value) => stepTimelineZoom(value, -1))}
                        data-testid="timeline-zoom-out"
                      >
                        <ZoomOut className="size-4" aria-hidden />
                      </Button>
                      <span
                        className="min-w-16 whitespace-nowrap text-center text-xs tabular-nums"
                        data-testid="timeline-zoom"
                        aria-live="polite"
                      >
                        {t('sequences.pxPerSecond', { value: pps })}
                      </span>
                      <Button
                        variant="secondary"
                        size="sm"
                        aria-label={t('sequences.zoomIn')}
                        disabled={pps >= SEQUENCE_LIMITS.maxPxPerSecond}
                        onClick={() => setPps((value) => stepTimelineZoom(value, 1))}
                        data-testid="timeline-zoom-in"
                      >
                        <ZoomIn className="size-4" aria-hidden />
                      </Button>
                    </div>
                  </div>
                  <p className="text-xs text-subtle">{t('sequences.timelineHint')}</p>
                  <TimelineTrack items={items} pps={pps} onSeek={playback.seek} />
                  <ClipCutFields items={items} />
                  <TimelineVideo playback={playback} />
                </section>
              </div>

              <aside className="space-y-6">
                <section className="space-y-2" aria-labelledby="tl-agent">
                  <h3 id="tl-agent" className={sectionTitle}>
                    {t('sequences.analysisTitle')}
                  </h3>
                  <MovieScriptField requireItems />
                  <AnalysisView />
                </section>
                <section className="space-y-2" aria-labelledby="tl-master">
                  <h3 id="tl-master" className={sectionTitle}>
                    {t('sequences.masterVideo')}
                  </h3>
                  <MasterSection testIds={false} />
                </section>
              </aside>
            </div>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
