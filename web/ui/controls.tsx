import { CircleAlert } from 'lucide-react';
import { Switch, ToggleGroup } from 'radix-ui';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from './cn.ts';
import { inputClass } from './Field.tsx';
import { NativeSelect } from './Select.tsx';

export const labelClass = 'text-xs font-medium text-muted';

/** The layout direction for Radix widgets whose arrow keys follow it. */
export function useDir(): 'ltr' | 'rtl' {
  const { i18n } = useTranslation();
  return i18n.language === 'ar' ? 'rtl' : 'ltr';
}

const selectVariants = {
  /** A tool's setting: small label above. */
  compact: {
    wrapper: 'min-w-0 space-y-1.5',
    label: labelClass,
    select: 'h-10 appearance-none truncate pe-8',
    chevron: 'end-2.5 size-4',
    selectWrapper: undefined,
  },
  /** A form field: the form's label size, taller, with an error line. */
  form: {
    wrapper: 'min-w-0 space-y-1.5',
    label: 'block text-sm font-medium text-fg',
    select: 'h-11 appearance-none truncate pe-9',
    chevron: 'end-3 size-4',
    selectWrapper: undefined,
  },
  /** In a toolbar: the label beside the select (e.g. a list's sort order). */
  inline: {
    wrapper: 'flex shrink-0 items-center gap-2',
    label: 'text-xs font-medium whitespace-nowrap text-muted',
    select: 'h-10 w-full appearance-none truncate pe-8 sm:w-44',
    chevron: 'end-2.5 size-4',
    selectWrapper: 'min-w-0 flex-1 sm:flex-none',
  },
} as const;

/** A labelled native select: the one select of the app, in the look of where it stands (`variant`). */
export function SelectField<T extends string = string>({
  label,
  value,
  onChange,
  options,
  hint,
  error,
  testId,
  disabled,
  variant = 'compact',
  className,
}: {
  label: string;
  value: T;
  onChange: (value: T) => void;
  options: ReadonlyArray<{ value: T; label: string }>;
  hint?: ReactNode;
  error?: string;
  testId?: string;
  disabled?: boolean;
  variant?: keyof typeof selectVariants;
  /** Placement in the form's grid, e.g. a whole row for long choices such as model names. */
  className?: string;
}) {
  const id = useId();
  const look = selectVariants[variant];
  return (
    <div className={cn(look.wrapper, className)}>
      <label htmlFor={id} className={look.label}>
        {label}
      </label>
      <NativeSelect
        id={id}
        value={value}
        onChange={(next) => onChange(next as T)}
        options={options}
        disabled={disabled}
        testId={testId}
        aria-invalid={error ? true : undefined}
        aria-describedby={hint ? `${id}-hint` : undefined}
        wrapperClassName={look.selectWrapper}
        className={cn(inputClass, look.select)}
        chevronClassName={look.chevron}
      />
      {error && (
        <p className="flex items-center gap-1.5 text-xs text-danger">
          <CircleAlert className="size-3.5 shrink-0" aria-hidden />
          {error}
        </p>
      )}
      {hint && (
        <p id={`${id}-hint`} className="text-xs leading-snug text-subtle">
          {hint}
        </p>
      )}
    </div>
  );
}

export function TextInputField({
  label,
  value,
  onChange,
  placeholder,
  hint,
  multiline,
  maxLength,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  hint?: ReactNode;
  multiline?: boolean;
  maxLength?: number;
}) {
  const id = useId();
  return (
    <div className="min-w-0 space-y-1.5">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {multiline ? (
        <textarea
          id={id}
          value={value}
          maxLength={maxLength}
          placeholder={placeholder}
          onChange={(event) => onChange(event.target.value)}
          className={cn(inputClass, 'min-h-16 resize-y py-2 leading-relaxed')}
          rows={2}
        />
      ) : (
        <input
          id={id}
          value={value}
          maxLength={maxLength}
          placeholder={placeholder}
          onChange={(event) => onChange(event.target.value)}
          className={cn(inputClass, 'h-10')}
        />
      )}
      {hint && <p className="text-xs leading-snug text-subtle">{hint}</p>}
    </div>
  );
}

export function SwitchField({
  label,
  description,
  checked,
  onChange,
  disabled,
  testId,
}: {
  label: string;
  description?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  testId?: string;
}) {
  const id = useId();
  const dir = useDir();
  return (
    <div className="flex items-start justify-between gap-3 rounded-lg border border-line bg-surface-2/60 px-3 py-2.5">
      <div className="min-w-0">
        <label htmlFor={id} className="text-sm font-medium text-fg">
          {label}
        </label>
        {description && <p className="mt-0.5 text-xs leading-snug text-subtle">{description}</p>}
      </div>
      <Switch.Root
        id={id}
        dir={dir}
        checked={checked}
        disabled={disabled}
        onCheckedChange={onChange}
        data-testid={testId}
        className={cn(
          // 24 px high: the smallest target WCAG 2.2 (2.5.8) allows.
          'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full border border-line-strong transition-colors',
          'data-[state=checked]:border-accent data-[state=checked]:bg-accent data-[state=unchecked]:bg-surface-3',
          'disabled:cursor-not-allowed disabled:opacity-50',
        )}
      >
        <Switch.Thumb
          className={cn(
            'block size-5 rounded-full bg-white shadow transition-transform',
            'translate-x-0.5 data-[state=checked]:translate-x-5',
            'rtl:-translate-x-0.5 rtl:data-[state=checked]:-translate-x-5',
          )}
        />
      </Switch.Root>
    </div>
  );
}

export function RangeField({
  label,
  value,
  onChange,
  min,
  max,
  step,
  format,
  hint,
  testId,
}: {
  label: string;
  value: number;
  onChange: (value: number) => void;
  min: number;
  max: number;
  step: number;
  format: (value: number) => string;
  hint?: string;
  testId?: string;
}) {
  const id = useId();
  return (
    <div className="min-w-0 space-y-1.5">
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className={labelClass}>
          {label}
        </label>
        <output htmlFor={id} className="text-xs font-semibold tabular-nums text-fg">
          {format(value)}
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(event) => onChange(Number(event.target.value))}
        // The track stays thin; the input is 24 px high so the whole row is the target.
        className="block h-6 w-full cursor-pointer accent-[var(--gp-accent)]"
        aria-valuetext={format(value)}
        data-testid={testId}
      />
      {hint && <p className="text-xs leading-snug text-subtle">{hint}</p>}
    </div>
  );
}

/** A single-choice row of buttons (arrow keys move between them). */
export function Segmented<T extends string>({
  label,
  value,
  onChange,
  options,
  testIdPrefix,
  size = 'md',
  layout = 'inline',
  className,
}: {
  label: string;
  value: T;
  onChange: (value: T) => void;
  /** `description`: a second, muted line under the label (the stack layout). */
  options: ReadonlyArray<{ value: T; label: string; icon?: ReactNode; title?: string; description?: string }>;
  testIdPrefix?: string;
  size?: 'sm' | 'md';
  /** inline: as wide as its items; fill: items share the full width; grid: two per row; stack: one per row, long
   * labels wrapping (choices whose labels are too long to share a row). */
  layout?: 'inline' | 'fill' | 'grid' | 'stack';
  className?: string;
}) {
  const dir = useDir();
  return (
    <ToggleGroup.Root
      type="single"
      dir={dir}
      value={value}
      aria-label={label}
      onValueChange={(next) => {
        if (next) onChange(next as T);
      }}
      className={cn(
        'max-w-full gap-1 rounded-xl border border-line bg-surface-2 p-1',
        layout === 'inline' && 'inline-flex overflow-x-auto',
        layout === 'fill' && 'flex w-full',
        layout === 'grid' && 'grid grid-cols-2',
        layout === 'stack' && 'grid grid-cols-1',
        className,
      )}
    >
      {options.map((option) => (
        <ToggleGroup.Item
          key={option.value}
          value={option.value}
          title={option.title}
          data-testid={testIdPrefix ? `${testIdPrefix}-${option.value}` : undefined}
          className={cn(
            'inline-flex min-w-0 items-center gap-1.5 rounded-lg font-medium text-muted transition-colors',
            layout === 'stack' ? 'justify-start py-1.5 text-start' : 'justify-center whitespace-nowrap',
            layout === 'inline' ? 'shrink-0' : 'flex-1',
            'hover:text-fg focus-visible:outline-2 focus-visible:outline-accent',
            'data-[state=on]:bg-surface data-[state=on]:text-fg data-[state=on]:shadow-sm',
            size === 'sm' ? 'px-2.5 text-xs' : 'px-3.5 text-sm',
            layout === 'stack' ? (size === 'sm' ? 'min-h-7' : 'min-h-9') : size === 'sm' ? 'h-7' : 'h-9',
          )}
        >
          {option.icon}
          {option.description ? (
            <span className="flex min-w-0 flex-col">
              <span>{option.label}</span>
              <span className="text-xs font-normal text-subtle">{option.description}</span>
            </span>
          ) : (
            option.label
          )}
        </ToggleGroup.Item>
      ))}
    </ToggleGroup.Root>
  );
}
