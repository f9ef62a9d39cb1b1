// The konva stage (canvas spec 2, 4): fills the space it is given (the 1200×800 element scaled to fit in it,
// with more of the canvas around it when the space has another shape), wheel zoom around the pointer
// (0.9/1.1, clamped 0.1–5), Select (click; double-click adds to the selection), Drag (moves images) and Pan.
// Performance: only images intersecting the viewport (plus a margin) are mounted; thumbnails are drawn
// until an image is wider on screen than its thumbnail; pan and zoom move the Stage imperatively (no React
// render per frame), hit-testing is off while they run, and the view is committed to the store at the end.
// Mid-gesture a re-cull only mounts nodes the viewport reaches (never upgrades a source to full resolution);
// zoom-in re-culls and thumbnail → full-resolution swaps wait until the gesture settles.
import type Konva from 'konva';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Image as KonvaImage, Layer, Rect, Stage } from 'react-konva';
import { useShallow } from 'zustand/react/shallow';
import { forgetListener, loadImage } from './imageCache.ts';
import { chooseSource, containRect, cullToViewport, type View, visibleRect, wheelZoom } from './rules.ts';
import { type CanvasImage, type CanvasTool, useCanvas, useStageView } from './store.ts';

/** Mount images this far (element px) beyond the visible area so short pans never show gaps. */
const CULL_MARGIN = 600;
const COMMIT_DELAY_MS = 150;
const CLICK_DELAY_MS = 220;

interface NodeProps {
  image: CanvasImage;
  src: string;
  tool: CanvasTool;
  onClick: (id: string, additive: boolean) => void;
  onDoubleClick: (id: string) => void;
}

const CanvasNode = memo(function CanvasNode({ image, src, tool, onClick, onDoubleClick }: NodeProps) {
  const [, setLoaded] = useState(0);
  const nodeRef = useRef<Konva.Image>(null);
  const onLoad = useCallback(() => {
    setLoaded((n) => n + 1);
  }, []);
  const element = loadImage(src, onLoad);
  const rendered = useRef(element);
  rendered.current = element;
  // Registered again once mounted: an effect cleanup (StrictMode runs one right after mounting) forgets the
  // listener, and an image that finished meanwhile still needs its redraw.
  useEffect(() => {
    const now = loadImage(src, onLoad);
    if (now && now !== rendered.current) onLoad();
    return () => forgetListener(src, onLoad);
  }, [src, onLoad]);
  // Keep the last loaded element while a bigger source loads, so zooming in never blanks an image.
  const shown = useRef<{ element: HTMLImageElement; src: string } | undefined>(undefined);
  if (element && shown.current?.element !== element) shown.current = { element, src };
  const loaded = shown.current?.element;
  const loadedFull = shown.current?.src === image.url;
  const pixelWidth = loaded?.naturalWidth ?? 0;
  const pixelHeight = loaded?.naturalHeight ?? 0;
  // Never stretched: drawn in its pixels' aspect inside its box, and a box of another aspect (a canvas saved
  // before boxes kept the aspect) is corrected in the store, so the selection, overlap checks and the next
  // save follow what is drawn.
  const drawn = containRect(image, { width: pixelWidth, height: pixelHeight });
  const misfit = drawn !== image;
  useEffect(() => {
    if (misfit) useCanvas.getState().fitToImage(image.id, { width: pixelWidth, height: pixelHeight }, loadedFull);
  }, [misfit, image.id, pixelWidth, pixelHeight, loadedFull]);

  const common = {
    id: image.id,
    x: drawn.x,
    y: drawn.y,
    width: drawn.width,
    height: drawn.height,
    draggable: tool === 'drag',
    perfectDrawEnabled: false,
    shadowForStrokeEnabled: false,
    stroke: image.isSelected ? '#6366f1' : undefined,
    strokeWidth: image.isSelected ? 6 : 0,
    strokeScaleEnabled: false,
    onClick: (e: Konva.KonvaEventObject<MouseEvent>) => {
      if (tool !== 'select') return;
      e.cancelBubble = true;
      onClick(image.id, e.evt.shiftKey || e.evt.metaKey || e.evt.ctrlKey);
    },
    onTap: () => tool === 'select' && onClick(image.id, false),
    onDblClick: (e: Konva.KonvaEventObject<MouseEvent>) => {
      if (tool !== 'select') return;
      e.cancelBubble = true;
      onDoubleClick(image.id);
    },
    onDblTap: () => tool === 'select' && onDoubleClick(image.id),
    onDragEnd: (e: Konva.KonvaEventObject<DragEvent>) => {
      e.cancelBubble = true;
      // The box's own corner (the node is drawn at `drawn`, the same until a misfit box is corrected).
      useCanvas
        .getState()
        .updateImage(image.id, { x: image.x + e.target.x() - drawn.x, y: image.y + e.target.y() - drawn.y });
    },
  };
  if (!loaded) return <Rect {...common} fill="#27272a" />;
  return <KonvaImage ref={nodeRef} {...common} image={loaded} />;
});

/**
 * `width`×`height` is the stage in CSS pixels; `fit` the scale of canvas units to them at zoom 1 (the 1200×800
 * element fits), so the stage shows width/fit × height/fit canvas units.
 */
export function CanvasStage({ fit, width, height }: { fit: number; width: number; height: number }) {
  const viewW = width / fit;
  const viewH = height / fit;
  const images = useCanvas((s) => s.images);
  const tool = useCanvas((s) => s.tool);
  const committed = useCanvas(useShallow((s) => ({ zoom: s.zoom, panX: s.panX, panY: s.panY })));
  const stageRef = useRef<Konva.Stage>(null);
  const layerRef = useRef<Konva.Layer>(null);
  const viewRef = useRef<View>(committed);
  const [cullView, setCullView] = useState<View>(committed);
  /** Zoom the sources were chosen for when the view last settled; mid-gesture sources never go above it. */
  const [settledZoom, setSettledZoom] = useState(committed.zoom);
  const cullRef = useRef<View>(committed);
  const interacting = useRef(false);
  const commitTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const clickTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const recullFrame = useRef(0);

  /** Re-cull (a React render of the visible nodes only) when the viewport leaves the mounted margin. */
  const maybeRecull = useCallback(
    (view: View) => {
      const mounted = visibleRect(cullRef.current, viewW, viewH, CULL_MARGIN);
      const seen = visibleRect(view, viewW, viewH);
      const inside =
        seen.x >= mounted.x &&
        seen.y >= mounted.y &&
        seen.x + seen.width <= mounted.x + mounted.width &&
        seen.y + seen.height <= mounted.y + mounted.height;
      // Mid-gesture only a viewport that leaves the mounted area re-culls (zooming in shrinks it: nothing new
      // to mount); the tighter cull and full-resolution sources for a zoom-in come when the gesture settles.
      const zoomRatio = view.zoom / cullRef.current.zoom;
      if (inside && (interacting.current || (zoomRatio < 1.5 && zoomRatio > 1 / 1.5))) return;
      if (recullFrame.current) return;
      recullFrame.current = requestAnimationFrame(() => {
        recullFrame.current = 0;
        cullRef.current = { ...viewRef.current };
        setCullView(cullRef.current);
      });
    },
    [viewW, viewH],
  );

  const applyView = useCallback(
    (view: View) => {
      viewRef.current = view;
      useStageView.setState(view, true);
      const stage = stageRef.current;
      if (!stage) return;
      stage.scale({ x: view.zoom * fit, y: view.zoom * fit });
      stage.position({ x: view.panX * fit, y: view.panY * fit });
      stage.batchDraw();
      maybeRecull(view);
    },
    [fit, maybeRecull],
  );

  // The store's view (reset, restore, end of an interaction) and the fit scale drive the Stage transform.
  useLayoutEffect(() => {
    applyView(committed);
    cullRef.current = committed;
    setCullView(committed);
    setSettledZoom(committed.zoom);
  }, [committed, applyView]);

  useEffect(
    () => () => {
      clearTimeout(commitTimer.current);
      clearTimeout(clickTimer.current);
      cancelAnimationFrame(recullFrame.current);
    },
    [],
  );

  const setInteracting = useCallback((on: boolean) => {
    interacting.current = on;
    layerRef.current?.listening(!on);
  }, []);

  /** The gesture settled: re-cull for the final view, choose sources for its zoom, store the view. */
  const commit = useCallback(() => {
    setInteracting(false);
    cancelAnimationFrame(recullFrame.current);
    recullFrame.current = 0;
    const v = { ...viewRef.current };
    cullRef.current = v;
    setCullView(v);
    setSettledZoom(v.zoom);
    const { zoom, panX, panY } = useCanvas.getState();
    if (v.zoom !== zoom || v.panX !== panX || v.panY !== panY) useCanvas.getState().setView(v);
  }, [setInteracting]);

  const onWheel = (e: Konva.KonvaEventObject<WheelEvent>) => {
    e.evt.preventDefault();
    const stage = stageRef.current;
    const pointer = stage?.getPointerPosition();
    if (!pointer || e.evt.deltaY === 0) return;
    setInteracting(true);
    applyView(wheelZoom(viewRef.current, e.evt.deltaY, { x: pointer.x / fit, y: pointer.y / fit }));
    clearTimeout(commitTimer.current);
    commitTimer.current = setTimeout(commit, COMMIT_DELAY_MS);
  };

  const onClick = useCallback((id: string, additive: boolean) => {
    clearTimeout(clickTimer.current);
    if (additive) {
      useCanvas.getState().toggleSelect(id);
      return;
    }
    // Wait a moment: a double-click adds to the selection instead of replacing it. A click selects the image,
    // and the selection toolbar beside it offers the quick AI edit (Multi-Composition for several).
    clickTimer.current = setTimeout(() => useCanvas.getState().select([id]), CLICK_DELAY_MS);
  }, []);
  const onDoubleClick = useCallback((id: string) => {
    clearTimeout(clickTimer.current);
    useCanvas.getState().toggleSelect(id);
  }, []);

  const scale =
    Math.min(cullView.zoom, settledZoom) * fit * (typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1);
  const visible = useMemo(() => {
    const area = visibleRect(cullView, viewW, viewH, CULL_MARGIN);
    return cullToViewport(images, area);
  }, [images, cullView, viewW, viewH]);

  return (
    <Stage
      ref={stageRef}
      width={Math.round(width)}
      height={Math.round(height)}
      draggable={tool === 'pan'}
      onWheel={onWheel}
      onDragStart={(e) => {
        if (e.target === stageRef.current) setInteracting(true);
      }}
      onDragMove={(e) => {
        const stage = stageRef.current;
        if (e.target !== stage || !stage) return;
        viewRef.current = { zoom: viewRef.current.zoom, panX: stage.x() / fit, panY: stage.y() / fit };
        useStageView.setState(viewRef.current, true);
        maybeRecull(viewRef.current);
      }}
      onDragEnd={(e) => {
        if (e.target === stageRef.current) commit();
      }}
      onClick={(e) => {
        if (tool === 'select' && e.target === stageRef.current) useCanvas.getState().select([]);
      }}
      style={{ cursor: tool === 'pan' ? 'grab' : tool === 'drag' ? 'move' : 'default' }}
    >
      <Layer ref={layerRef}>
        {visible.map((image) => (
          <CanvasNode
            key={image.id}
            image={image}
            src={chooseSource(image, scale) === 'full' ? image.url : (image.thumbnailUrl ?? image.url)}
            tool={tool}
            onClick={onClick}
            onDoubleClick={onDoubleClick}
          />
        ))}
      </Layer>
    </Stage>
  );
}
