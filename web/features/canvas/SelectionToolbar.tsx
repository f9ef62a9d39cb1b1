// The selected images' floating toolbar (issue 29): Quick edit, Magic Selector on this image, Region edit,
// Upscale, Pin and Remove, placed beside the selection so it never covers it (above, else below, else beside;
// rules.ts floatingPlacement), inside the stage, following pan and zoom as they happen. Quick edit opens its
// panel inside the same floating card, so the image being edited stays in sight.
import { MousePointerSquareDashed, Pin, Sparkles, Trash2, Wand2, WandSparkles } from 'lucide-react';
import { type ReactNode, useLayoutEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { useDir } from '../../ui/controls.tsx';
import { QuickEditPopover } from './dialogs/QuickEditPopover.tsx';
import { boundingRect, floatingPlacement, intersects, screenRect } from './rules.ts';
import { type CanvasImage, selectedImages, useCanvas, useStageView } from './store.ts';

/** Below this stage width the buttons show their icons only (their names stay their accessible names). */
const LABELS_FROM_WIDTH = 720;

/**
 * The card's full size (its scroll height: also while it is cut to the room it has and scrolls) and its toolbar's
 * height (the least it needs), kept up to date; 0 until it is mounted.
 */
function useCardSize(element: HTMLElement | null) {
  const [size, setSize] = useState({ width: 0, height: 0, toolbar: 0 });
  useLayoutEffect(() => {
    if (!element) return;
    const measure = () => {
      const width = element.offsetWidth;
      const height = element.scrollHeight;
      const toolbar = element.querySelector<HTMLElement>('[role="toolbar"]')?.offsetHeight ?? height;
      setSize((s) =>
        s.width === width && s.height === height && s.toolbar === toolbar ? s : { width, height, toolbar },
      );
    };
    measure();
    // The card and what is in it (the quick edit panel opening, its text area growing).
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    const children = new MutationObserver(() => {
      for (const child of element.children) observer.observe(child);
      measure();
    });
    for (const child of element.children) observer.observe(child);
    children.observe(element, { childList: true });
    return () => {
      observer.disconnect();
      children.disconnect();
    };
  }, [element]);
  return size;
}

function ToolButton({
  label,
  icon,
  compact,
  testId,
  ...props
}: {
  label: string;
  icon: ReactNode;
  compact: boolean;
  testId: string;
  onClick: () => void;
  disabled?: boolean;
  pressed?: boolean;
}) {
  return (
    <Button
      variant={props.pressed ? 'secondary' : 'ghost'}
      size="sm"
      aria-label={label}
      aria-pressed={props.pressed}
      title={label}
      data-testid={testId}
      disabled={props.disabled}
      onClick={props.onClick}
      className={cn(compact ? 'w-9 px-0' : 'px-2.5')}
    >
      {icon}
      {!compact && <span aria-hidden>{label}</span>}
    </Button>
  );
}

function ToolbarButtons({
  selection,
  compact,
  onMagicSelector,
  onPin,
}: {
  selection: CanvasImage[];
  compact: boolean;
  onMagicSelector: (image: CanvasImage) => void;
  onPin: (images: CanvasImage[]) => void;
}) {
  const { t } = useTranslation();
  const openDialog = useCanvas((s) => s.openDialog);
  const setOpenDialog = useCanvas((s) => s.setOpenDialog);
  const single = selection.length === 1;
  const icon = 'size-4 shrink-0';
  return (
    <div
      role="toolbar"
      aria-label={t('canvasToolbar.label', { count: selection.length })}
      data-testid="canvas-selection-toolbar"
      className="flex items-center gap-0.5 rounded-xl border border-line bg-surface p-1 shadow-lg"
    >
      <ToolButton
        label={single ? t('canvasToolbar.quickEdit') : t('canvasToolbar.compose')}
        icon={<Wand2 className={icon} aria-hidden />}
        compact={compact}
        testId="canvas-toolbar-quick-edit"
        pressed={openDialog === 'quick-edit'}
        onClick={() => setOpenDialog(openDialog === 'quick-edit' ? null : 'quick-edit')}
      />
      <ToolButton
        label={t('canvasToolbar.magicSelector')}
        icon={<WandSparkles className={icon} aria-hidden />}
        compact={compact}
        testId="canvas-toolbar-magic"
        disabled={!single}
        onClick={() => single && onMagicSelector(selection[0])}
      />
      <ToolButton
        label={t('canvasToolbar.regionEdit')}
        icon={<MousePointerSquareDashed className={icon} aria-hidden />}
        compact={compact}
        testId="canvas-toolbar-region"
        disabled={!single}
        onClick={() => setOpenDialog('region-edit')}
      />
      <ToolButton
        label={t('canvasToolbar.upscale')}
        icon={<Sparkles className={icon} aria-hidden />}
        compact={compact}
        testId="canvas-toolbar-upscale"
        disabled={!single}
        onClick={() => setOpenDialog('image-enhance')}
      />
      <ToolButton
        label={t('canvasToolbar.pin')}
        icon={<Pin className={icon} aria-hidden />}
        compact={compact}
        testId="canvas-toolbar-pin"
        onClick={() => onPin(selection)}
      />
      <ToolButton
        label={t('canvasToolbar.remove')}
        icon={<Trash2 className={icon} aria-hidden />}
        compact={compact}
        testId="canvas-toolbar-remove"
        onClick={() => useCanvas.getState().removeImages(selection.map((image) => image.id))}
      />
    </div>
  );
}

/**
 * Drawn inside the stage box (`bounds`, CSS px); `fit` is the stage's scale of canvas units at zoom 1. What lies
 * outside the canvas (the Magic Selector tab, the cinema sequence) comes in as callbacks from the editor.
 */
export function SelectionToolbar({
  fit,
  bounds,
  onMagicSelector,
  onPin,
}: {
  fit: number;
  bounds: { width: number; height: number };
  onMagicSelector: (image: CanvasImage) => void;
  onPin: (images: CanvasImage[]) => void;
}) {
  const dir = useDir();
  const selection = useCanvas(useShallow((s) => selectedImages(s)));
  const quickEdit = useCanvas((s) => s.openDialog === 'quick-edit');
  const setOpenDialog = useCanvas((s) => s.setOpenDialog);
  const view = useStageView();
  const [card, setCard] = useState<HTMLDivElement | null>(null);
  const size = useCardSize(card);

  const box = boundingRect(selection);
  const anchor = box ? screenRect(box, view, fit) : null;
  // Out of sight (panned away), the toolbar waits until the selection comes back into view.
  if (!anchor || !intersects(anchor, { x: 0, y: 0, ...bounds })) return null;
  const place = floatingPlacement(anchor, size, bounds, 8, 8, size.toolbar);
  const close = () => {
    setOpenDialog(null);
    card?.querySelector<HTMLElement>('[data-testid="canvas-toolbar-quick-edit"]')?.focus();
  };
  return (
    <div
      ref={setCard}
      dir={dir}
      data-testid="canvas-selection-card"
      data-side={place.side}
      className={cn(
        'absolute z-10 flex w-max max-w-[calc(100%-1rem)] gap-2',
        place.maxHeight !== undefined && 'overflow-y-auto overscroll-contain',
        // The buttons stay next to the image; the quick edit panel opens on the far side of them, under Quick edit.
        place.side === 'above' ? 'flex-col-reverse items-start' : 'flex-col items-start',
      )}
      // Measured first (hidden), then placed: a card of unknown size could land on the image.
      style={{
        left: place.x,
        top: place.y,
        maxHeight: place.maxHeight,
        visibility: size.width > 0 ? 'visible' : 'hidden',
      }}
    >
      <ToolbarButtons
        selection={selection}
        compact={bounds.width < LABELS_FROM_WIDTH}
        onMagicSelector={onMagicSelector}
        onPin={onPin}
      />
      {quickEdit && <QuickEditPopover onClose={close} />}
    </div>
  );
}
