import type { ReactNode } from 'react';
import {
  PERSONA_VIDEO,
  type PersonaVideoAspectRatio,
  type PersonaVideoDuration,
} from '../../../common/rules/personas.ts';
import { cn } from '../../ui/cn.ts';
import { labelClass, Segmented } from '../../ui/controls.tsx';

/** The visible label above a choice row; the row itself carries the same text as its aria-label. */
function Labelled({ label, fill, children }: { label: string; fill?: boolean; children: ReactNode }) {
  return (
    <div className={cn(fill && 'min-w-0', 'space-y-1.5')}>
      <p className={labelClass} aria-hidden>
        {label}
      </p>
      {children}
    </div>
  );
}

/** The video length (5 or 8 s) of a persona or UGC video. */
export function VideoDurationChoice({
  label,
  value,
  onChange,
  secondsLabel,
  testIdPrefix,
  fill,
}: {
  label: string;
  value: PersonaVideoDuration;
  onChange: (value: PersonaVideoDuration) => void;
  secondsLabel: (count: number) => string;
  testIdPrefix: string;
  fill?: boolean;
}) {
  return (
    <Labelled label={label} fill={fill}>
      <Segmented<string>
        label={label}
        value={String(value)}
        onChange={(next) => onChange(Number(next) as PersonaVideoDuration)}
        options={PERSONA_VIDEO.durations.map((d) => ({ value: String(d), label: secondsLabel(d) }))}
        testIdPrefix={testIdPrefix}
        size="sm"
        layout={fill ? 'fill' : undefined}
      />
    </Labelled>
  );
}

/** The frame of a persona or UGC video (16:9 or 9:16), in the order given. */
export function VideoRatioChoice({
  label,
  value,
  onChange,
  ratios = PERSONA_VIDEO.aspectRatios,
  testIdPrefix,
  fill,
}: {
  label: string;
  value: PersonaVideoAspectRatio;
  onChange: (value: PersonaVideoAspectRatio) => void;
  ratios?: readonly PersonaVideoAspectRatio[];
  testIdPrefix: string;
  fill?: boolean;
}) {
  return (
    <Labelled label={label} fill={fill}>
      <Segmented<PersonaVideoAspectRatio>
        label={label}
        value={value}
        onChange={onChange}
        options={ratios.map((ratio) => ({ value: ratio, label: ratio }))}
        testIdPrefix={testIdPrefix}
        size="sm"
        layout={fill ? 'fill' : undefined}
      />
    </Labelled>
  );
}
