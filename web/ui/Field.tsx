import { CircleAlert } from 'lucide-react';
import { type InputHTMLAttributes, type ReactNode, type Ref, type TextareaHTMLAttributes, useId } from 'react';
import { cn } from './cn.ts';

export const inputClass = cn(
  'block w-full rounded-lg border border-line bg-surface-2 px-3.5 text-sm text-fg placeholder:text-subtle',
  'transition-colors hover:border-line-strong',
  'focus:border-accent focus:outline-none focus:ring-3 focus:ring-accent/25',
  'disabled:cursor-not-allowed disabled:opacity-60',
  'aria-invalid:border-danger aria-invalid:focus:ring-danger/25',
);

interface FieldShellProps {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
  labelAside?: ReactNode;
}

function FieldShell({ id, label, error, hint, children, labelAside }: FieldShellProps) {
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-fg">
          {label}
        </label>
        {labelAside}
      </div>
      {children}
      {error ? (
        <p
          id={`${id}-error`}
          className="flex items-center gap-1.5 text-xs text-danger"
          data-testid={`field-error-${id}`}
        >
          <CircleAlert className="size-3.5 shrink-0" aria-hidden />
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-subtle">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string;
  hint?: ReactNode;
  id?: string;
  ref?: Ref<HTMLInputElement>;
  /** Element drawn inside the input at the end (e.g. a show-password toggle). */
  trailing?: ReactNode;
  labelAside?: ReactNode;
}

export function TextField({ label, error, hint, id, trailing, labelAside, className, ref, ...props }: TextFieldProps) {
  const generated = useId();
  const fieldId = id ?? generated;
  return (
    <FieldShell id={fieldId} label={label} error={error} hint={hint} labelAside={labelAside}>
      <div className="relative">
        <input
          id={fieldId}
          ref={ref}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${fieldId}-error` : hint ? `${fieldId}-hint` : undefined}
          className={cn(inputClass, 'h-11', trailing ? 'pe-11' : undefined, className)}
          {...props}
        />
        {trailing && <div className="absolute inset-y-0 end-0 flex items-center pe-1.5">{trailing}</div>}
      </div>
    </FieldShell>
  );
}

interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string;
  error?: string;
  hint?: ReactNode;
  id?: string;
  ref?: Ref<HTMLTextAreaElement>;
}

export function TextAreaField({ label, error, hint, id, className, ref, ...props }: TextAreaFieldProps) {
  const generated = useId();
  const fieldId = id ?? generated;
  return (
    <FieldShell id={fieldId} label={label} error={error} hint={hint}>
      <textarea
        id={fieldId}
        ref={ref}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${fieldId}-error` : hint ? `${fieldId}-hint` : undefined}
        className={cn(inputClass, 'min-h-32 resize-y py-2.5 leading-relaxed', className)}
        {...props}
      />
    </FieldShell>
  );
}

/** A form-level message: the server's error (testid form-error) or a notice. */
export function FormMessage({
  kind = 'error',
  children,
}: {
  kind?: 'error' | 'info' | 'success';
  children: ReactNode;
}) {
  const styles = {
    error: 'border-danger/30 bg-danger-soft text-danger',
    info: 'border-accent/30 bg-accent-soft text-fg',
    success: 'border-success/30 bg-success-soft text-success',
  }[kind];
  return (
    <div
      role={kind === 'error' ? 'alert' : 'status'}
      data-testid={kind === 'error' ? 'form-error' : 'form-info'}
      className={cn('flex items-start gap-2 rounded-lg border px-3.5 py-2.5 text-sm', styles)}
    >
      <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
      <div className="min-w-0 whitespace-pre-line">{children}</div>
    </div>
  );
}
