// The cut of one clip typed in seconds: the trim the timeline's handles make, as two fields. A clip too short
// at the zoom for 24 px handles (a 1 s clip at 10 px/s) is trimmed here with full-size targets (WCAG 2.5.8's
// equivalent control), and anyone who prefers numbers to dragging uses it too.
import { type ChangeEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dragHandle, SEQUENCE_LIMITS } from '../../../common/rules/sequences.ts';
import { cn } from '../../ui/cn.ts';
import { SelectField } from '../../ui/controls.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { type SequenceItem, useSequences } from './store.ts';

const round1 = (n: number) => Math.round(n * 10) / 10;
/** dragHandle works in pixels: any zoom converts back exactly, so the default one is used. */
const PPS = SEQUENCE_LIMITS.defaultPxPerSecond;

/** The range a field's value may take now: the start up to 1 s before the end, the end after the start. */
function rangeOf(item: SequenceItem, edge: 'start' | 'end'): { min: number; max: number } {
  const limit = Math.max(SEQUENCE_LIMITS.minDuration, Math.min(SEQUENCE_LIMITS.maxDuration, item.maxDuration));
  const end = round1(item.startTime + item.duration);
  return edge === 'start'
    ? { min: round1(Math.max(0, end - limit)), max: round1(end - SEQUENCE_LIMITS.minDuration) }
    : { min: round1(item.startTime + SEQUENCE_LIMITS.minDuration), max: round1(limit) };
}

function SecondsField({ item, edge }: { item: SequenceItem; edge: 'start' | 'end' }) {
  const { t } = useTranslation();
  const id = useId();
  const setTiming = useSequences((state) => state.setTiming);
  const value = edge === 'start' ? item.startTime : round1(item.startTime + item.duration);
  const [draft, setDraft] = useState(String(value));
  useEffect(() => setDraft(String(value)), [value]);
  const { min, max } = rangeOf(item, edge);
  const typed = Number(draft);
  const valid = draft.trim() !== '' && Number.isFinite(typed) && typed >= min && typed <= max;
  const apply = (seconds: number) => setTiming(item.id, dragHandle(item, edge, (seconds - value) * PPS, PPS));

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    setDraft(event.target.value);
    const seconds = Number(event.target.value);
    if (event.target.value.trim() !== '' && Number.isFinite(seconds) && seconds >= min && seconds <= max)
      apply(seconds);
  };
  // Out of range or unreadable when the field is left: the nearest allowed value, shown at once.
  const settle = () => {
    if (Number.isFinite(typed) && draft.trim() !== '') apply(Math.min(max, Math.max(min, typed)));
    else setDraft(String(value));
  };

  return (
    <div className="min-w-0 space-y-1.5">
      <label htmlFor={id} className="text-xs font-medium text-muted">
        {t(edge === 'start' ? 'sequences.cutStart' : 'sequences.cutEnd')}
      </label>
      <input
        id={id}
        data-testid={`timeline-cut-${edge}`}
        type="number"
        inputMode="decimal"
        step={0.1}
        min={min}
        max={max}
        value={draft}
        aria-invalid={valid ? undefined : true}
        onChange={onChange}
        onBlur={settle}
        onKeyDown={(event) => {
          if (event.key === 'Enter') settle();
        }}
        className={cn(inputClass, 'h-9 tabular-nums')}
      />
    </div>
  );
}

/** Below the track: which clip, and its start and end in seconds within its video. */
export function ClipCutFields({ items }: { items: SequenceItem[] }) {
  const { t } = useTranslation();
  const [chosenId, setChosenId] = useState<string | null>(null);
  const item = items.find((candidate) => candidate.id === chosenId) ?? items[0];
  if (!item) return null;
  return (
    <fieldset
      data-testid="timeline-cut"
      className="grid gap-3 rounded-xl border border-line bg-surface p-3 sm:grid-cols-[minmax(0,1fr)_8rem_8rem]"
    >
      <legend className="px-1 text-xs font-semibold text-fg">{t('sequences.cutTitle')}</legend>
      <SelectField
        label={t('sequences.cutClip')}
        value={item.id}
        onChange={setChosenId}
        options={items.map((candidate, index) => ({
          value: candidate.id,
          label: t('sequences.cutClipOption', { index: index + 1 }),
        }))}
        testId="timeline-cut-clip"
      />
      <SecondsField key={`${item.id}-start`} item={item} edge="start" />
      <SecondsField key={`${item.id}-end`} item={item} edge="end" />
    </fieldset>
  );
}
