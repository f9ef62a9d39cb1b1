import { ImagePlus } from 'lucide-react';
import {
  type CSSProperties,
  type DragEvent,
  type KeyboardEvent,
  type PointerEvent,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../ui/cn.ts';
import { type ArtboardSize, fitScale, keepAspect, type Layer } from './layers.ts';

// A transparency checkerboard, so the artboard's edge and uncovered areas read as empty.
const CHECKER = {
  backgroundColor: 'var(--color-surface-2)',
  backgroundImage:
    'conic-gradient(var(--color-surface-3) 25%, transparent 0 50%, var(--color-surface-3) 0 75%, transparent 0)',
  backgroundSize: '24px 24px',
};

interface Gesture {
  id: string;
  kind: 'move' | 'resize';
  pointerX: number;
  pointerY: number;
  start: Layer;
}

export interface ArtboardActions {
  select: (id: string | null) => void;
  move: (id: string, x: number, y: number) => void;
  resize: (id: string, size: { width: number; height: number }) => void;
  shift: (id: string, direction: 'up' | 'down') => void;
  remove: (id: string) => void;
  dropFiles: (files: FileList) => void;
}

/**
 * The scaled artboard: layers drawn at their place and stacking order; drag a layer to move it, its corner
 * handle to resize it (aspect kept; Shift resizes freely). Keyboard: arrows move (Shift: 50 px), + and -
 * resize, Page Up / Page Down reorder, Delete removes. Coordinates are physical (never mirrored in RTL).
 */
export function Artboard({
  board,
  layers,
  selectedId,
  actions,
}: {
  board: ArtboardSize;
  layers: readonly Layer[];
  selectedId: string | null;
  actions: ArtboardActions;
}) {
  const { t } = useTranslation();
  const frame = useRef<HTMLDivElement | null>(null);
  const [space, setSpace] = useState({ width: 0, height: 0 });
  const [dragOver, setDragOver] = useState(false);
  const gesture = useRef<Gesture | null>(null);

  useLayoutEffect(() => {
    const el = frame.current;
    if (!el) return;
    const measure = () => setSpace({ width: el.clientWidth - 16, height: el.clientHeight - 16 });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const scale = fitScale(board, space);

  const begin = (e: PointerEvent<HTMLElement>, layer: Layer, kind: Gesture['kind']) => {
    if (e.button !== 0) return;
    e.stopPropagation();
    e.currentTarget.setPointerCapture(e.pointerId);
    actions.select(layer.id);
    gesture.current = { id: layer.id, kind, pointerX: e.clientX, pointerY: e.clientY, start: layer };
  };
  const follow = (e: PointerEvent<HTMLElement>) => {
    const g = gesture.current;
    if (!g || scale <= 0) return;
    const dx = (e.clientX - g.pointerX) / scale;
    const dy = (e.clientY - g.pointerY) / scale;
    if (g.kind === 'move') actions.move(g.id, g.start.x + dx, g.start.y + dy);
    else if (e.shiftKey) actions.resize(g.id, { width: g.start.width + dx, height: g.start.height + dy });
    else actions.resize(g.id, keepAspect(g.start, g.start.width + dx));
  };
  const end = () => {
    gesture.current = null;
  };

  const onKey = (e: KeyboardEvent<HTMLElement>, layer: Layer) => {
    const step = e.shiftKey ? 50 : 10;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const delta = moves[e.key];
    if (delta) actions.move(layer.id, layer.x + delta[0], layer.y + delta[1]);
    else if (e.key === '+' || e.key === '=') actions.resize(layer.id, keepAspect(layer, layer.width * 1.05));
    else if (e.key === '-') actions.resize(layer.id, keepAspect(layer, layer.width / 1.05));
    else if (e.key === 'PageUp') actions.shift(layer.id, 'up');
    else if (e.key === 'PageDown') actions.shift(layer.id, 'down');
    else if (e.key === 'Delete' || e.key === 'Backspace') actions.remove(layer.id);
    else return;
    e.preventDefault();
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragOver(false);
    if (e.dataTransfer.files.length > 0) actions.dropFiles(e.dataTransfer.files);
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a file drop target; the Upload button is the keyboard path
    <div
      ref={frame}
      className={cn(
        // Small screens: the frame takes the artboard's shape; wide ones: a fixed stage.
        'relative grid max-h-[60vh] min-h-72 w-full aspect-[var(--board-ratio)] place-items-center overflow-hidden rounded-2xl border border-line bg-bg lg:aspect-auto lg:h-[min(70vh,760px)] lg:max-h-none',
        dragOver && 'border-accent',
      )}
      style={{ '--board-ratio': `${board.width} / ${board.height}` } as CSSProperties}
      onDragOver={(e) => {
        e.preventDefault();
        setDragOver(true);
      }}
      onDragLeave={() => setDragOver(false)}
      onDrop={onDrop}
    >
      {scale > 0 && (
        // biome-ignore lint/a11y/useSemanticElements: a positioned drawing surface, not a form group
        <div
          dir="ltr"
          data-testid="mc-artboard"
          data-width={board.width}
          data-height={board.height}
          aria-label={t('multiComposition.artboard', { width: board.width, height: board.height })}
          role="group"
          className="relative overflow-hidden rounded-md shadow-lg ring-1 ring-line"
          style={{ width: board.width * scale, height: board.height * scale, ...CHECKER }}
          onPointerDown={() => actions.select(null)}
        >
          {layers.map((layer) => {
            const selected = layer.id === selectedId;
            return (
              // biome-ignore lint/a11y/useSemanticElements: a draggable, resizable layer is not a plain button
              <div
                key={layer.id}
                role="button"
                tabIndex={0}
                data-testid="mc-layer"
                data-layer-id={layer.id}
                data-x={layer.x}
                data-y={layer.y}
                data-z={layer.zIndex}
                aria-pressed={selected}
                aria-label={t('multiComposition.layerLabel', {
                  name: layer.name,
                  x: layer.x,
                  y: layer.y,
                  width: layer.width,
                  height: layer.height,
                })}
                className={cn(
                  'absolute cursor-move touch-none select-none outline-none',
                  selected
                    ? 'ring-2 ring-accent'
                    : 'hover:ring-1 hover:ring-accent/60 focus-visible:ring-2 focus-visible:ring-accent',
                )}
                style={{
                  left: layer.x * scale,
                  top: layer.y * scale,
                  width: layer.width * scale,
                  height: layer.height * scale,
                  zIndex: layer.zIndex + 1,
                  opacity: layer.opacity,
                }}
                onPointerDown={(e) => begin(e, layer, 'move')}
                onPointerMove={follow}
                onPointerUp={end}
                onPointerCancel={end}
                onFocus={() => actions.select(layer.id)}
                onKeyDown={(e) => onKey(e, layer)}
              >
                <img src={layer.url} alt="" draggable={false} className="pointer-events-none size-full object-fill" />
                {selected && (
                  <span
                    data-testid="mc-resize-handle"
                    aria-hidden
                    className="absolute -bottom-1.5 -right-1.5 size-3.5 cursor-nwse-resize rounded-sm border-2 border-surface bg-accent"
                    onPointerDown={(e) => begin(e, layer, 'resize')}
                    onPointerMove={follow}
                    onPointerUp={end}
                    onPointerCancel={end}
                  />
                )}
              </div>
            );
          })}
        </div>
      )}
      {layers.length === 0 && (
        <div className="pointer-events-none absolute inset-0 grid place-items-center p-6 text-center">
          <div className="max-w-xs space-y-2 rounded-xl bg-surface/85 p-4 text-sm text-muted">
            <ImagePlus className="mx-auto size-7 text-subtle" aria-hidden />
            <p>{t('multiComposition.empty')}</p>
          </div>
        </div>
      )}
    </div>
  );
}
