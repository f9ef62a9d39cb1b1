import { CalendarClock, Copy, Pencil, XCircle } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { ScheduledPost } from '../../../common/api/social.ts';
import { MESSAGES } from '../../../common/messages.ts';
import {
  dayInZone,
  duplicateTime,
  editedMessage,
  formatReschedule,
  parseReschedule,
  TIME_SLOTS,
} from '../../../common/rules/scheduling.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmPopup } from '../../ui/ConfirmPopup.tsx';
import { cn } from '../../ui/cn.ts';
import { SelectField } from '../../ui/controls.tsx';
import { DialogTitleBar } from '../../ui/DialogTitleBar.tsx';
import { FormMessage, inputClass } from '../../ui/Field.tsx';
import { useCancelScheduled, useCreateScheduled, useUpdateScheduled } from './api.ts';
import { MonthCalendar, monthOf } from './MonthCalendar.tsx';
import { errorText, socialMessage } from './messages.ts';
import { formatDay, useNow } from './zone.ts';

const M = MESSAGES.social;
// Over the day dialog (z-50) these sit one layer up.
const LAYER = 'z-[60]';

function PromptDialog({
  open,
  onOpenChange,
  title,
  children,
  onSubmit,
  pending,
  testId,
  wide,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  children: ReactNode;
  onSubmit: () => void;
  pending: boolean;
  testId: string;
  /** Room for a month calendar. */
  wide?: boolean;
}) {
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={cn('fixed inset-0 bg-black/60', LAYER)} />
        <Dialog.Content
          data-testid={testId}
          aria-describedby={undefined}
          className={cn(
            'fixed left-1/2 top-1/2 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col rounded-2xl border border-line bg-surface shadow-2xl',
            wide ? 'max-w-lg' : 'max-w-md',
            LAYER,
          )}
        >
          <DialogTitleBar title={title} />
          <form onSubmit={submit} className="min-h-0 space-y-4 overflow-y-auto p-4 sm:p-5">
            {children}
            <div className="flex justify-end gap-2">
              <Dialog.Close asChild>
                <Button variant="secondary" size="sm">
                  {t('publishing.scheduled.close')}
                </Button>
              </Dialog.Close>
              <Button type="submit" size="sm" loading={pending} data-testid={`${testId}-save`}>
                {t('publishing.scheduled.save')}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function EditMessage({
  post,
  open,
  onOpenChange,
}: {
  post: ScheduledPost;
  open: boolean;
  onOpenChange: (o: boolean) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState(post.message);
  const update = useUpdateScheduled();
  const submit = () => {
    // Spec 5: a blank or unchanged message is ignored.
    const next = editedMessage(post.message, text);
    if (next === null) {
      onOpenChange(false);
      return;
    }
    update.mutate(
      { id: post.id, message: next },
      {
        onSuccess: () => {
          toast.success(t('publishing.scheduled.updatedToast'));
          onOpenChange(false);
        },
      },
    );
  };
  return (
    <PromptDialog
      open={open}
      onOpenChange={(next) => {
        if (next) setText(post.message);
        update.reset();
        onOpenChange(next);
      }}
      title={t('publishing.scheduled.edit')}
      onSubmit={submit}
      pending={update.isPending}
      testId="post-edit-dialog"
    >
      <div className="space-y-1.5">
        <label htmlFor={id} className="text-sm font-medium">
          {t('publishing.scheduled.editLabel')}
        </label>
        <textarea
          id={id}
          value={text}
          maxLength={5000}
          rows={5}
          data-testid="post-edit-input"
          onChange={(event) => setText(event.target.value)}
          className={cn(inputClass, 'resize-y py-2.5 leading-relaxed')}
        />
      </div>
      {update.isError && <FormMessage>{errorText(update.error)}</FormMessage>}
    </PromptDialog>
  );
}

/** The post's wall date ('YYYY-MM-DD') and time ('HH:MM') in its zone. */
function wallOf(post: ScheduledPost): { date: string; time: string } {
  const [date = '', time = ''] = formatReschedule(new Date(post.scheduled_time), post.timezone).split(' ');
  return { date, time };
}

/**
 * Reschedule with the date and 15-minute time pickers of Schedule Post, in the post's zone. The choice is read as
 * the spec's 'YYYY-MM-DD HH:MM' with its rules and messages (a past or impossible time is refused).
 */
function Reschedule({
  post,
  open,
  onOpenChange,
}: {
  post: ScheduledPost;
  open: boolean;
  onOpenChange: (o: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const today = dayInZone(now, post.timezone);
  const [choice, setChoice] = useState(() => wallOf(post));
  const [month, setMonth] = useState(() => monthOf(choice.date));
  const [problem, setProblem] = useState<string | null>(null);
  const update = useUpdateScheduled();
  const value = `${choice.date} ${choice.time}`;
  // A post scheduled off the 15-minute grid (through the API) keeps its own time on offer.
  const slots = TIME_SLOTS.includes(choice.time) ? TIME_SLOTS : [...TIME_SLOTS, choice.time].sort();
  const submit = () => {
    let parsed: ReturnType<typeof parseReschedule>;
    try {
      parsed = parseReschedule(value, post.timezone, new Date());
    } catch {
      parsed = { ok: false, message: M.rescheduleFormat };
    }
    if (!parsed.ok) {
      setProblem(parsed.message);
      return;
    }
    setProblem(null);
    update.mutate(
      { id: post.id, scheduled_time: parsed.at.toISOString(), timezone: post.timezone },
      {
        onSuccess: () => {
          toast.success(t('publishing.scheduled.rescheduledToast'));
          onOpenChange(false);
        },
      },
    );
  };
  const change = (next: Partial<typeof choice>) => {
    setChoice({ ...choice, ...next });
    setProblem(null);
  };
  return (
    <PromptDialog
      open={open}
      onOpenChange={(next) => {
        if (next) {
          const wall = wallOf(post);
          setChoice(wall);
          setMonth(monthOf(wall.date));
        }
        setProblem(null);
        update.reset();
        onOpenChange(next);
      }}
      title={t('publishing.scheduled.reschedule')}
      onSubmit={submit}
      pending={update.isPending}
      testId="post-reschedule-dialog"
      wide
    >
      <MonthCalendar
        month={month}
        onMonthChange={setMonth}
        today={today}
        selected={choice.date}
        onSelect={(date) => change({ date })}
        disablePast
        label={t('publishing.schedule.date')}
        testId="post-reschedule-calendar"
      />
      <SelectField
        label={t('publishing.schedule.time')}
        value={choice.time}
        onChange={(time) => change({ time })}
        options={slots.map((slot) => ({ value: slot, label: slot }))}
        hint={t('publishing.scheduled.rescheduleHint', { zone: post.timezone })}
        testId="post-reschedule-time"
      />
      <p className="rounded-lg bg-surface-2 px-3 py-2 text-sm" aria-live="polite" data-testid="post-reschedule-summary">
        <span className="text-muted">{t('publishing.scheduled.rescheduleTo')} </span>
        <span className="font-medium">
          {t('publishing.schedule.summaryWhen', { date: formatDay(choice.date, i18n.language), time: choice.time })}
        </span>
        <span
          className="mt-0.5 block font-mono text-xs text-subtle tabular-nums rtl:text-right"
          dir="ltr"
          data-testid="post-reschedule-value"
        >
          {value}
        </span>
      </p>
      {problem && <FormMessage>{socialMessage(problem)}</FormMessage>}
      {update.isError && <FormMessage>{errorText(update.error)}</FormMessage>}
    </PromptDialog>
  );
}

/** Edit, reschedule, duplicate and cancel: shown only for scheduled posts in the future (spec 4). */
export function PostActions({ post }: { post: ScheduledPost }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [rescheduling, setRescheduling] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const create = useCreateScheduled();
  const cancel = useCancelScheduled();

  const duplicate = () =>
    create.mutate(
      {
        message: post.message,
        media_urls: post.media_urls,
        scheduled_time: duplicateTime(new Date(post.scheduled_time)).toISOString(),
        timezone: post.timezone,
        platforms: [post.platform],
        mode: post.collaboration_id ? 'campaigns' : 'materials',
        collaboration_id: post.collaboration_id,
      },
      {
        onSuccess: () => toast.success(t('publishing.scheduled.duplicatedToast')),
        onError: (error) => toast.error(socialMessage(M.scheduleFailed), { description: errorText(error) }),
      },
    );

  const onCancel = () =>
    cancel.mutate(post.id, {
      onSuccess: () => {
        setCancelling(false);
        toast.success(t('publishing.scheduled.cancelledToast'));
      },
      onError: (error) => {
        setCancelling(false);
        toast.error(socialMessage(M.cancelFailed), { description: errorText(error) });
      },
    });

  const action = 'h-8 gap-1.5 px-2.5 text-xs';
  return (
    <div className="flex flex-wrap gap-1">
      <Button variant="ghost" className={action} data-testid="post-edit" onClick={() => setEditing(true)}>
        <Pencil className="size-3.5" aria-hidden />
        {t('publishing.scheduled.edit')}
      </Button>
      <Button variant="ghost" className={action} data-testid="post-reschedule" onClick={() => setRescheduling(true)}>
        <CalendarClock className="size-3.5" aria-hidden />
        {t('publishing.scheduled.reschedule')}
      </Button>
      <Button
        variant="ghost"
        className={action}
        data-testid="post-duplicate"
        loading={create.isPending}
        onClick={duplicate}
      >
        {!create.isPending && <Copy className="size-3.5" aria-hidden />}
        {t('publishing.scheduled.duplicate')}
      </Button>
      <ConfirmPopup
        open={cancelling}
        onOpenChange={setCancelling}
        pending={cancel.isPending}
        trigger={
          <Button variant="ghost" className={cn(action, 'text-danger hover:text-danger')} data-testid="post-cancel">
            <XCircle className="size-3.5" aria-hidden />
            {t('publishing.scheduled.cancel')}
          </Button>
        }
        title={t('publishing.scheduled.confirmCancelTitle')}
        body={t('publishing.scheduled.confirmCancelBody')}
        cancelLabel={t('publishing.scheduled.keep')}
        confirmLabel={t('publishing.scheduled.cancel')}
        onConfirm={onCancel}
        testId="post-cancel-confirm"
        confirmTestId="post-cancel-confirm-button"
        layerClassName={LAYER}
      />
      <EditMessage post={post} open={editing} onOpenChange={setEditing} />
      <Reschedule post={post} open={rescheduling} onOpenChange={setRescheduling} />
    </div>
  );
}
