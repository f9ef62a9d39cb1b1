// Small pieces the campaign plan form's sections share: a field's error line, a row of toggle chips, a section box,
// and the errors the form shows (none until the first attempt to build).
import { Check } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { useStore } from 'zustand';
import { cn } from '../../ui/cn.ts';
import { labelClass } from '../../ui/controls.tsx';
import type { DraftErrors } from './form.ts';
import { campaignMessage } from './messages.ts';
import type { PlanStore } from './planStore.ts';

export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={`${id}-error`} data-testid={`plan-error-${id}`} className="text-xs text-danger" role="alert">
      {campaignMessage(message)}
    </p>
  );
}

/** A multi-select row of toggle chips (each a button with aria-pressed). */
export function Chips<T extends string>({
  label,
  options,
  value,
  onChange,
  format,
  testIdPrefix,
  error,
  errorId,
}: {
  label: string;
  options: readonly T[];
  value: readonly T[];
  onChange: (value: T[]) => void;
  format: (value: T) => string;
  testIdPrefix: string;
  error?: string;
  errorId: string;
}) {
  const id = useId();
  return (
    <fieldset className="min-w-0 space-y-2" aria-describedby={error ? `${errorId}-error` : undefined}>
      <legend id={id} className={cn(labelClass, 'mb-2')}>
        {label}
      </legend>
      <div className="flex flex-wrap gap-2">
        {options.map((option) => {
          const on = value.includes(option);
          return (
            <button
              key={option}
              type="button"
              aria-pressed={on}
              data-testid={`${testIdPrefix}-${option}`}
              onClick={() => onChange(on ? value.filter((v) => v !== option) : [...value, option])}
              className={cn(
                'inline-flex h-9 items-center gap-1.5 rounded-full border px-3.5 text-sm font-medium transition-colors',
                'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
                on
                  ? 'border-accent bg-accent-soft text-fg'
                  : 'border-line bg-surface-2 text-muted hover:border-line-strong hover:text-fg',
              )}
            >
              {on && <Check className="size-3.5 text-accent" aria-hidden />}
              {format(option)}
            </button>
          );
        })}
      </div>
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-4 rounded-xl border border-line bg-surface-2/40 p-4">
      <h3 className="text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

export function usePlanErrors(store: PlanStore): DraftErrors {
  const shownErrors = useStore(store, (s) => s.errors);
  const showErrors = useStore(store, (s) => s.showErrors);
  return showErrors ? shownErrors : {};
}
