import { type ClipboardEvent, type KeyboardEvent, type Ref, useImperativeHandle, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from './cn.ts';

export interface CodeInputHandle {
  focusFirst: () => void;
}

interface CodeInputProps {
  length: number;
  digits: string[];
  onChange: (digits: string[]) => void;
  onComplete: (code: string) => void;
  disabled?: boolean;
  invalid?: boolean;
  ref?: Ref<CodeInputHandle>;
}

const onlyDigits = (value: string) => value.replace(/\D/g, '');

/**
 * Six single-digit boxes: digits only, typing moves forward, Backspace moves back, paste (or autofill) fills
 * from the first box with the first six digits, and a full code is reported through onComplete.
 */
export function CodeInput({ length, digits, onChange, onComplete, disabled, invalid, ref }: CodeInputProps) {
  const { t } = useTranslation();
  const inputs = useRef<Array<HTMLInputElement | null>>([]);

  useImperativeHandle(ref, () => ({ focusFirst: () => inputs.current[0]?.focus() }), []);

  const focusAt = (index: number) => {
    const target = inputs.current[Math.max(0, Math.min(length - 1, index))];
    target?.focus();
    target?.select();
  };

  const commit = (next: string[]) => {
    onChange(next);
    if (next.every((d) => d !== '')) onComplete(next.join(''));
  };

  /** Write `text`'s digits starting at `start`; returns the index after the last written box. */
  const fill = (start: number, text: string) => {
    const incoming = onlyDigits(text)
      .slice(0, length - start)
      .split('');
    if (incoming.length === 0) return;
    const next = [...digits];
    incoming.forEach((digit, offset) => {
      next[start + offset] = digit;
    });
    commit(next);
    focusAt(start + incoming.length);
  };

  const handleChange = (index: number, value: string) => {
    const clean = onlyDigits(value);
    if (clean.length === 0) {
      if (value === '') {
        const next = [...digits];
        next[index] = '';
        onChange(next);
      }
      return;
    }
    if (clean.length === 1) {
      const next = [...digits];
      next[index] = clean;
      commit(next);
      if (index < length - 1) focusAt(index + 1);
      return;
    }
    // Several characters at once: a one-time-code autofill or typing over a filled box.
    if (clean.length >= length) fill(0, clean);
    else {
      // Typing into a box that already holds a digit: keep the newly typed one.
      const typed = clean.startsWith(digits[index]) ? clean.slice(digits[index].length) : clean;
      fill(index, typed);
    }
  };

  const handleKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace') {
      event.preventDefault();
      const next = [...digits];
      if (digits[index]) {
        next[index] = '';
        onChange(next);
      } else if (index > 0) {
        next[index - 1] = '';
        onChange(next);
        focusAt(index - 1);
      }
    } else if (event.key === 'Delete') {
      event.preventDefault();
      const next = [...digits];
      next[index] = '';
      onChange(next);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      focusAt(index - 1);
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      focusAt(index + 1);
    } else if (event.key === 'Home') {
      event.preventDefault();
      focusAt(0);
    } else if (event.key === 'End') {
      event.preventDefault();
      focusAt(length - 1);
    } else if (event.key.length === 1 && !/\d/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault(); // digits only
    }
  };

  const handlePaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const pasted = onlyDigits(event.clipboardData.getData('text')).slice(0, length);
    if (pasted.length === 0) return;
    const next = Array.from({ length }, (_, i) => pasted[i] ?? '');
    commit(next);
    focusAt(pasted.length >= length ? length - 1 : pasted.length);
  };

  return (
    // Codes read left to right in every language.
    <fieldset dir="ltr" className="flex justify-between gap-2 sm:gap-3" disabled={disabled}>
      <legend className="sr-only">{t('auth.verify.codeLabel')}</legend>
      {digits.map((digit, index) => (
        <input
          // biome-ignore lint/suspicious/noArrayIndexKey: the boxes are positional
          key={index}
          ref={(element) => {
            inputs.current[index] = element;
          }}
          data-testid={`code-input-${index}`}
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          maxLength={length}
          aria-label={t('auth.verify.digitLabel', { index: index + 1, total: length })}
          aria-invalid={invalid || undefined}
          value={digit}
          onChange={(event) => handleChange(index, event.target.value)}
          onKeyDown={(event) => handleKeyDown(index, event)}
          onPaste={handlePaste}
          onFocus={(event) => event.target.select()}
          className={cn(
            'h-14 w-full min-w-0 max-w-14 rounded-xl border bg-surface-2 text-center font-mono text-2xl font-semibold text-fg',
            'caret-accent transition-colors focus:border-accent focus:outline-none focus:ring-3 focus:ring-accent/25',
            'disabled:opacity-60',
            invalid ? 'border-danger' : digit ? 'border-line-strong' : 'border-line',
          )}
        />
      ))}
    </fieldset>
  );
}
