import { type ClipboardEvent, type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from './cn.ts';

interface CodeInputProps {
  length: number;
  digits: string[];
  onChange: (digits: string[]) => void;
  onComplete: (code: string) => void;
  /**
   * The first box takes the focus each time this number changes from 0 (so on arrival when it starts above 0), as
   * soon as the boxes are enabled. A counter, not a state such as "there is an error": typing must never pull the
   * focus back to the first box.
   */
  focusRequest: number;
  disabled?: boolean;
  invalid?: boolean;
  /** The accessible name of the group (default: the verification code). */
  label?: string;
  /** Describes the group (a hint or an error shown next to it). */
  describedBy?: string;
}

const onlyDigits = (value: string) => value.replace(/\D/g, '');
const emptyDigits = (length: number) => Array.from({ length }, () => '');

/**
 * The state of one code entry: the digits, and `retry()` after a refused code (the boxes emptied and the first
 * focused again). Every code entry of the app (log-in two-factor and mailed codes, email verification, the
 * password reset, two-factor setup) goes through this and CodeInput, so they all behave alike.
 */
export function useCodeEntry({
  length,
  onComplete,
  onEdit,
  autoFocus = true,
}: {
  length: number;
  onComplete: (code: string) => void;
  /** The user changed a digit (clear a shown error here). */
  onEdit?: () => void;
  /** Focus the first box on arrival (not where the boxes are one section of a longer page). */
  autoFocus?: boolean;
}) {
  const [digits, setDigits] = useState(() => emptyDigits(length));
  const [focusRequest, setFocusRequest] = useState(autoFocus ? 1 : 0);
  const retry = useCallback(() => {
    setDigits(emptyDigits(length));
    setFocusRequest((n) => n + 1);
  }, [length]);
  return {
    digits,
    code: digits.join(''),
    complete: digits.every((d) => d !== ''),
    retry,
    /** Props for CodeInput. */
    input: {
      length,
      digits,
      focusRequest,
      onComplete,
      onChange: (next: string[]) => {
        setDigits(next);
        onEdit?.();
      },
    },
  };
}

/**
 * Six single-digit boxes: digits only, typing moves forward, Backspace moves back, paste (or autofill) fills
 * from the first box with the first six digits, and a full code is reported through onComplete.
 */
export function CodeInput({
  length,
  digits,
  onChange,
  onComplete,
  focusRequest,
  disabled,
  invalid,
  label,
  describedBy,
}: CodeInputProps) {
  const { t } = useTranslation();
  const inputs = useRef<Array<HTMLInputElement | null>>([]);
  const focusedFor = useRef(0);

  // A disabled box cannot take the focus: a request made while the code is being checked waits for the answer.
  useEffect(() => {
    if (disabled || focusedFor.current === focusRequest) return;
    focusedFor.current = focusRequest;
    inputs.current[0]?.focus();
  }, [focusRequest, disabled]);

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
    <fieldset
      dir="ltr"
      className="flex justify-between gap-2 sm:gap-3"
      disabled={disabled}
      aria-describedby={describedBy}
    >
      <legend className="sr-only">{label ?? t('auth.verify.codeLabel')}</legend>
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
