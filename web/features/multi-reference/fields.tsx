// The Multi-Reference tool's own field kinds: a select of translated options, a 1-step slider, the input look.
import type { TFunction } from 'i18next';
import type { ReactElement } from 'react';
import { cn } from '../../ui/cn.ts';
import { RangeField, SelectField } from '../../ui/controls.tsx';
import { inputClass } from '../../ui/Field.tsx';

// The studio's own controls and field look (web/ui), so this tool reads like every other screen.
export const fieldClass = cn(inputClass, 'h-10');

export function optionSelect<T extends string>(
  t: TFunction,
  value: T,
  options: readonly T[],
  onChange: (v: T) => void,
  label: string,
  testId?: string,
): ReactElement {
  return (
    <SelectField
      label={label}
      value={value}
      onChange={onChange}
      options={options.map((o) => ({ value: o, label: t(`multiReference.options.${o}`, { defaultValue: o }) }))}
      testId={testId}
    />
  );
}

export function rangeSlider(
  label: string,
  testId: string,
  bounds: { min: number; max: number },
  value: number,
  onChange: (v: number) => void,
): ReactElement {
  return (
    <RangeField
      label={label}
      testId={testId}
      min={bounds.min}
      max={bounds.max}
      step={1}
      value={value}
      format={String}
      onChange={onChange}
    />
  );
}
