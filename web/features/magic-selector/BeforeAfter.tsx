// The Magic Selector's result beside what it was made from (issue 29): one large picture, the "before" drawn
// over the "after" from the reading start up to a divider. A choice shows the whole before, the split, or the
// whole after; in the split a slider (arrow keys) moves the divider, in the reading direction like the slider.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../ui/cn.ts';
import { RangeField, Segmented, useDir } from '../../ui/controls.tsx';

type CompareView = 'before' | 'split' | 'after';

export function BeforeAfter({ before, after, className }: { before: string; after: string; className?: string }) {
  const { t } = useTranslation();
  const [view, setView] = useState<CompareView>('split');
  const [split, setSplit] = useState(50);
  const rtl = useDir() === 'rtl';
  /** How much of the width, from the start side, shows the before. */
  const shown = view === 'before' ? 100 : view === 'after' ? 0 : split;
  const hidden = `${100 - shown}%`;
  const chip = 'pointer-events-none absolute top-2 rounded-md bg-black/70 px-2 py-0.5 text-xs font-medium text-white';
  return (
    <figure data-testid="magic-compare" data-view={view} className={cn('min-w-0 space-y-3', className)}>
      <div className="relative mx-auto w-fit max-w-full overflow-hidden rounded-xl bg-surface-3">
        <img
          src={after}
          alt={t('magicCompare.after')}
          data-testid="magic-compare-after"
          className="block h-auto max-h-[62vh] w-auto max-w-full select-none"
          draggable={false}
        />
        <img
          src={before}
          alt={t('magicCompare.before')}
          data-testid="magic-compare-before"
          className="absolute inset-0 size-full select-none object-contain"
          style={{ clipPath: rtl ? `inset(0 0 0 ${hidden})` : `inset(0 ${hidden} 0 0)` }}
          draggable={false}
        />
        {view === 'split' && (
          <span
            aria-hidden
            className="pointer-events-none absolute inset-y-0 -ms-px w-0.5 bg-white shadow-[0_0_0_1px_rgba(0,0,0,0.4)]"
            style={{ insetInlineStart: `${shown}%` }}
          />
        )}
        {shown > 0 && (
          <span aria-hidden className={cn(chip, 'start-2')}>
            {t('magicCompare.before')}
          </span>
        )}
        {shown < 100 && (
          <span aria-hidden className={cn(chip, 'end-2')}>
            {t('magicCompare.after')}
          </span>
        )}
      </div>
      <figcaption className="flex flex-wrap items-end gap-3">
        <Segmented<CompareView>
          label={t('magicCompare.show')}
          value={view}
          onChange={setView}
          options={[
            { value: 'before', label: t('magicCompare.before') },
            { value: 'split', label: t('magicCompare.split') },
            { value: 'after', label: t('magicCompare.after') },
          ]}
          testIdPrefix="magic-compare-view"
        />
        {view === 'split' && (
          <div className="min-w-40 flex-1">
            <RangeField
              label={t('magicCompare.divider')}
              value={split}
              onChange={setSplit}
              min={0}
              max={100}
              step={1}
              format={(value) => t('magicCompare.dividerValue', { percent: value })}
              testId="magic-compare-split"
            />
          </div>
        )}
      </figcaption>
    </figure>
  );
}
