import { ChevronDown } from 'lucide-react';
import type { ReactNode, SelectHTMLAttributes } from 'react';
import { cn } from './cn.ts';

interface NativeSelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'children'> {
  value: string;
  onChange: (value: string) => void;
  options: ReadonlyArray<{ value: string; label: string }>;
  testId?: string;
  /** Position and size of the chevron drawn at the end (they follow the select's height). */
  chevronClassName: string;
  wrapperClassName?: string;
  /** Drawn inside the wrapper before the select (e.g. an absolutely placed icon). */
  leading?: ReactNode;
}

/** A native select with a chevron at the end: keyboard and screen-reader friendly on every device. */
export function NativeSelect({
  onChange,
  options,
  testId,
  chevronClassName,
  wrapperClassName,
  leading,
  ...props
}: NativeSelectProps) {
  return (
    <div className={cn('relative', wrapperClassName)}>
      {leading}
      <select {...props} data-testid={testId} onChange={(event) => onChange(event.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <ChevronDown
        className={cn('pointer-events-none absolute top-1/2 -translate-y-1/2 text-subtle', chevronClassName)}
        aria-hidden
      />
    </div>
  );
}
