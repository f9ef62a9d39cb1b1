import {
  AudioLines,
  Clapperboard,
  Film,
  Image as ImageIcon,
  Layers,
  ListChecks,
  type LucideIcon,
  MousePointerClick,
  ScanFace,
  Send,
  Sparkles,
  Upload,
  Wand2,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { RunningTask } from '../../../common/api/tasks.ts';
import { buttonClass } from '../../ui/Button.tsx';
import { ProgressBar } from '../../ui/ProgressBar.tsx';
import { useRunningTasks } from './api.ts';
import { HomeEmpty, HomeLoadFailed, HomeLoading, HomeSection } from './sections.tsx';

/** Each task kind's label key and icon; kinds added later read as a generic task. */
const KINDS: Record<string, { key: string; icon: LucideIcon }> = {
  'generate.image': { key: 'image', icon: ImageIcon },
  'generate.video': { key: 'video', icon: Clapperboard },
  'generate.audio': { key: 'audio', icon: AudioLines },
  'upscale.image': { key: 'imageUpscale', icon: Sparkles },
  'upscale.video': { key: 'videoEnhance', icon: Sparkles },
  'persona.images': { key: 'personaImages', icon: ScanFace },
  'canvas.image': { key: 'canvasEdit', icon: Wand2 },
  'inpaint.image': { key: 'inpaint', icon: MousePointerClick },
  'multi-reference.image': { key: 'multiReference', icon: Layers },
  'sequence.compile-master': { key: 'masterVideo', icon: Film },
  'media.extract': { key: 'upload', icon: Upload },
  'social.publish': { key: 'publish', icon: Send },
};

function TaskRow({ task }: { task: RunningTask }) {
  const { t } = useTranslation();
  const kind = KINDS[task.kind] ?? { key: 'other', icon: ListChecks };
  const Icon = kind.icon;
  const label = t(`workspaceHome.tasks.kinds.${kind.key}`);
  const queued = task.status === 'queued';
  return (
    <li
      data-testid="running-task"
      data-kind={task.kind}
      data-status={task.status}
      data-progress={task.progress}
      className="flex items-start gap-3 rounded-xl border border-line bg-surface-2/50 p-3"
    >
      <span className="mt-0.5 grid size-9 shrink-0 place-items-center rounded-lg bg-surface-3 text-accent">
        <Icon className="size-4" aria-hidden />
      </span>
      <div className="min-w-0 flex-1 space-y-1.5">
        {task.prompt && (
          <p className="truncate text-xs text-muted" dir="auto" title={task.prompt}>
            {task.prompt}
          </p>
        )}
        <ProgressBar
          value={task.progress}
          secondsLeft={task.estimatedSecondsLeft}
          label={label}
          status={queued ? t('workspaceHome.tasks.queued') : undefined}
        />
      </div>
    </li>
  );
}

/** The user's queued and processing work with its progress, refreshed every 2 s while any of it runs. */
export function RunningTasks() {
  const { t } = useTranslation();
  const tasks = useRunningTasks();
  const list = tasks.data ?? [];
  return (
    <HomeSection
      testId="home-tasks"
      title={t('workspaceHome.tasks.title')}
      icon={<ListChecks className="size-4" aria-hidden />}
      action={
        list.length > 0 ? (
          <span className="text-xs text-muted tabular-nums" data-testid="home-tasks-count">
            {t('workspaceHome.tasks.count', { count: list.length })}
          </span>
        ) : undefined
      }
    >
      {tasks.isPending ? (
        <HomeLoading />
      ) : tasks.isError ? (
        <HomeLoadFailed onRetry={() => void tasks.refetch()} />
      ) : list.length === 0 ? (
        <HomeEmpty testId="home-tasks-empty" text={t('workspaceHome.tasks.empty')}>
          <Link to="/dashboard?view=genproStudio&tab=creator&mode=image" className={buttonClass('secondary', 'sm')}>
            <Sparkles className="size-4" aria-hidden />
            {t('workspaceHome.openStudio')}
          </Link>
        </HomeEmpty>
      ) : (
        <ul className="space-y-2.5">
          {list.map((task) => (
            <TaskRow key={task.id} task={task} />
          ))}
        </ul>
      )}
    </HomeSection>
  );
}
