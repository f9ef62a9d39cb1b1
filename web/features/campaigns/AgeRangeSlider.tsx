import { useId } from 'react';
import { cn } from '../../ui/cn.ts';

const thumb = cn(
  'pointer-events-none absolute inset-x-0 top-1/2 h-5 w-full -translate-y-1/2 appearance-none bg-transparent',
  '[&::-webkit-slider-thumb]:pointer-events-auto [&::-webkit-slider-thumb]:size-5 [&::-webkit-slider-thumb]:cursor-grab',
  '[&::-webkit-slider-thumb]:appearance-none [&::-webkit-slider-thumb]:rounded-full [&::-webkit-slider-thumb]:border-2',
  '[&::-webkit-slider-thumb]:border-accent [&::-webkit-slider-thumb]:bg-white [&::-webkit-slider-thumb]:shadow',
  '[&::-moz-range-thumb]:pointer-events-auto [&::-moz-range-thumb]:size-4 [&::-moz-range-thumb]:cursor-grab',
  '[&::-moz-range-thumb]:rounded-full [&::-moz-range-thumb]:border-2 [&::-moz-range-thumb]:border-accent',
  '[&::-moz-range-thumb]:bg-white focus-visible:outline-none',
  'focus-visible:[&::-webkit-slider-thumb]:ring-4 focus-visible:[&::-webkit-slider-thumb]:ring-accent/30',
);

/**
 * Two range inputs over one track: the lower and upper age. Each is a real <input type="range"> so arrow keys,
 * Home/End and screen readers work; the thumbs never cross.
 */
export function AgeRangeSlider({
  min,
  max,
  value,
  onChange,
  label,
  minLabel,
  maxLabel,
  summary,
}: {
  min: number;
  max: number;
  value: readonly [number, number];
  onChange: (value: [number, number]) => void;
  label: string;
  minLabel: string;
  maxLabel: string;
  summary: string;
}) {
  const id = useId();
  const [low, high] = value;
  const span = max - min;
  const start = ((low - min) / span) * 100;
  const end = ((high - min) / span) * 100;
  const thumbInput = (
    current: number,
    ariaLabel: string,
    testId: string,
    onValue: (value: number) => void,
    className: string,
  ) => (
    <input
      type="range"
      min={min}
      max={max}
      step={1}
      value={current}
      aria-label={ariaLabel}
      aria-valuetext={String(current)}
      data-testid={testId}
      onChange={(event) => onValue(Number(event.target.value))}
      className={className}
    />
  );
  return (
    <fieldset className="min-w-0 space-y-2" aria-labelledby={`${id}-label`}>
      <div className="flex items-center justify-between gap-2">
        <legend id={`${id}-label`} className="float-start text-xs font-medium text-muted">
          {label}
        </legend>
        <output className="text-xs font-semibold text-fg" data-testid="age-summary" aria-live="polite">
          {summary}
        </output>
      </div>
      <div className="relative h-5">
        <div className="absolute inset-x-0 top-1/2 h-1.5 -translate-y-1/2 rounded-full bg-surface-3" />
        <div
          className="absolute top-1/2 h-1.5 -translate-y-1/2 rounded-full bg-accent"
          style={{ insetInlineStart: `${start}%`, insetInlineEnd: `${100 - end}%` }}
        />
        {thumbInput(
          low,
          minLabel,
          'age-min',
          (value) => onChange([Math.min(value, high), high]),
          cn(thumb, low >= max - 1 && 'z-10'),
        )}
        {thumbInput(high, maxLabel, 'age-max', (value) => onChange([low, Math.max(value, low)]), thumb)}
      </div>
      <div className="flex justify-between text-xs tabular-nums text-subtle">
        <span>{min}</span>
        <span>{max}</span>
      </div>
    </fieldset>
  );
}
