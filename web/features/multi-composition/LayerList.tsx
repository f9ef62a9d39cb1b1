import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../ui/cn.ts';
import { inputClass } from '../../ui/Field.tsx';
import { byZ, type Layer } from './layers.ts';

// No spinner arrows: four boxes share a narrow row and must show four digits.
const numberClass = cn(
  inputClass,
  'h-8 px-1.5 text-xs tabular-nums [appearance:textfield] [&::-webkit-inner-spin-button]:appearance-none [&::-webkit-outer-spin-button]:appearance-none',
);

function NumberBox({
  label,
  value,
  testId,
  onCommit,
}: {
  label: string;
  value: number;
  testId: string;
  onCommit: (value: number) => void;
}) {
  return (
    <label className="block space-y-1">
      <span className="text-xs font-medium text-muted">{label}</span>
      <input
        // Re-mount on outside changes (drag) so the box shows the current value.
        key={value}
        type="number"
        inputMode="numeric"
        defaultValue={value}
        data-testid={testId}
        className={numberClass}
        onBlur={(e) => {
          const next = Number(e.currentTarget.value);
          if (Number.isFinite(next) && next !== value) onCommit(next);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') e.currentTarget.blur();
        }}
      />
    </label>
  );
}

export interface LayerListActions {
  select: (id: string) => void;
  shift: (id: string, direction: 'up' | 'down') => void;
  remove: (id: string) => void;
  move: (id: string, x: number, y: number) => void;
  resize: (id: string, size: { width: number; height: number }) => void;
  opacity: (id: string, value: number) => void;
}

/** The layers, top first, with order buttons, removal and the selected layer's exact box and opacity. */
export function LayerList({
  layers,
  selectedId,
  actions,
}: {
  layers: readonly Layer[];
  selectedId: string | null;
  actions: LayerListActions;
}) {
  const { t } = useTranslation();
  const stack = byZ(layers).reverse();
  if (stack.length === 0) return <p className="text-xs text-muted">{t('multiComposition.noLayers')}</p>;
  const iconButton =
    'grid size-7 shrink-0 place-items-center rounded-md text-muted hover:bg-surface-3 hover:text-fg disabled:pointer-events-none disabled:opacity-35';
  return (
    <ol className="space-y-1.5" data-testid="mc-layer-list">
      {stack.map((layer, i) => {
        const selected = layer.id === selectedId;
        return (
          <li
            key={layer.id}
            data-testid="mc-layer-row"
            className={cn('rounded-xl border p-1.5', selected ? 'border-accent bg-accent-soft/40' : 'border-line')}
          >
            <div className="flex items-center gap-2">
              <button
                type="button"
                className="flex min-w-0 flex-1 items-center gap-2 rounded-md text-start"
                aria-pressed={selected}
                onClick={() => actions.select(layer.id)}
              >
                <img src={layer.url} alt="" className="size-9 shrink-0 rounded-md bg-surface-3 object-cover" />
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-xs font-medium">{layer.name}</span>
                  <span className="block text-xs tabular-nums text-muted" dir="ltr">
                    {layer.width}×{layer.height}
                  </span>
                </span>
              </button>
              <button
                type="button"
                className={iconButton}
                aria-label={t('multiComposition.bringForward')}
                title={t('multiComposition.bringForward')}
                disabled={i === 0}
                data-testid="mc-layer-up"
                onClick={() => actions.shift(layer.id, 'up')}
              >
                <ArrowUp className="size-4" aria-hidden />
              </button>
              <button
                type="button"
                className={iconButton}
                aria-label={t('multiComposition.sendBackward')}
                title={t('multiComposition.sendBackward')}
                disabled={i === stack.length - 1}
                data-testid="mc-layer-down"
                onClick={() => actions.shift(layer.id, 'down')}
              >
                <ArrowDown className="size-4" aria-hidden />
              </button>
              <button
                type="button"
                className={cn(iconButton, 'hover:text-danger')}
                aria-label={t('multiComposition.removeLayer')}
                title={t('multiComposition.removeLayer')}
                data-testid="mc-layer-remove"
                onClick={() => actions.remove(layer.id)}
              >
                <Trash2 className="size-4" aria-hidden />
              </button>
            </div>
            {selected && (
              <div className="mt-2 space-y-2 px-1 pb-1">
                <div className="grid grid-cols-4 gap-1.5" dir="ltr">
                  <NumberBox
                    label="X"
                    value={layer.x}
                    testId="mc-layer-x"
                    onCommit={(x) => actions.move(layer.id, x, layer.y)}
                  />
                  <NumberBox
                    label="Y"
                    value={layer.y}
                    testId="mc-layer-y"
                    onCommit={(y) => actions.move(layer.id, layer.x, y)}
                  />
                  <NumberBox
                    label={t('multiComposition.widthShort')}
                    value={layer.width}
                    testId="mc-layer-width"
                    onCommit={(width) => actions.resize(layer.id, { width, height: layer.height })}
                  />
                  <NumberBox
                    label={t('multiComposition.heightShort')}
                    value={layer.height}
                    testId="mc-layer-height"
                    onCommit={(height) => actions.resize(layer.id, { width: layer.width, height })}
                  />
                </div>
                <label className="block">
                  <span className="text-xs font-medium text-muted">
                    {t('multiComposition.opacity', { value: Math.round(layer.opacity * 100) })}
                  </span>
                  <input
                    type="range"
                    min={0}
                    max={100}
                    value={Math.round(layer.opacity * 100)}
                    onChange={(e) => actions.opacity(layer.id, Number(e.target.value) / 100)}
                    className="h-2 w-full cursor-pointer accent-[var(--gp-accent)]"
                    data-testid="mc-layer-opacity"
                  />
                </label>
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}
