// The multi-composition workspace (canvas spec 2, 3, 7, 9; editor overlay tab "multi-composition"): up to
// ten image layers placed on an artboard, a prompt, and Compose calling POST /api/nanobana/multi-image-composition
// with the layers' images bottom first, the artboard's aspect ratio, and the layout written into the prompt
// (the endpoint takes no layout field). Takes part in saved sessions as 'multi-composition'.

import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { AssetPicker } from '../assets/AssetPicker.tsx';
import { useSessionParticipant } from '../editor-sessions/registry.ts';
import { Artboard } from './Artboard.tsx';
import { CanvasImagePicker } from './CanvasImagePicker.tsx';
import { CompositionHeader } from './CompositionHeader.tsx';
import { ArtboardSize, ComposeForm, CompositionLayers, CompositionResult } from './CompositionSide.tsx';
import { drawThumbnail, loadImage } from './images.ts';
import { byZ, captureCompositionSession, parseCompositionSession, roomLeft } from './layers.ts';
import { createCompositionStore } from './store.ts';

export function MultiCompositionTool() {
  const { t } = useTranslation();
  const [store] = useState(createCompositionStore);
  const layers = useStore(store, (s) => s.layers);
  const board = useStore(store, (s) => s.board);
  const selectedId = useStore(store, (s) => s.selectedId);
  const prompt = useStore(store, (s) => s.prompt);
  const busy = useStore(store, (s) => s.busy);
  const result = useStore(store, (s) => s.result);
  const { layerActions, addFiles, addFromCanvas, addFromAssets } = store.getState();
  const [elapsed, setElapsed] = useState(0);
  const [canvasPicker, setCanvasPicker] = useState(false);
  const [assetPicker, setAssetPicker] = useState(false);
  const resultRef = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (!busy) return;
    const started = Date.now();
    setElapsed(0);
    const timer = setInterval(() => setElapsed(Math.round((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, [busy]);

  useSessionParticipant('multi-composition', {
    capture: () =>
      captureCompositionSession({
        layers,
        canvasWidth: board.width,
        canvasHeight: board.height,
        prompt,
        result,
      }) as Record<string, unknown> | null,
    restore: (data) => store.getState().restore(parseCompositionSession(data)),
    thumbnail: () =>
      layers.length === 0 && result
        ? drawThumbnail(board, async (g) => {
            g.drawImage(await loadImage(result.url), 0, 0, board.width, board.height);
          })
        : layers.length === 0
          ? null
          : drawThumbnail(board, async (g) => {
              const images = await Promise.all(byZ(layers).map((layer) => loadImage(layer.url).catch(() => null)));
              byZ(layers).forEach((layer, i) => {
                const img = images[i];
                if (!img) return;
                g.globalAlpha = layer.opacity;
                g.drawImage(img, layer.x, layer.y, layer.width, layer.height);
              });
            }),
  });

  const compose = async () => {
    // The result appears below the settings: bring it into view.
    if (await store.getState().compose())
      requestAnimationFrame(() => resultRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' }));
  };

  const room = roomLeft(layers);

  return (
    <section
      data-testid="multi-composition-tool"
      data-busy={busy ? 'true' : 'false'}
      aria-labelledby="multi-composition-title"
      className="flex min-w-0 flex-col gap-4 lg:flex-row lg:items-start"
    >
      <div className="min-w-0 flex-1 space-y-3">
        <CompositionHeader
          store={store}
          onFromCanvas={() => setCanvasPicker(true)}
          onFromAssets={() => setAssetPicker(true)}
        />

        <Artboard
          board={board}
          layers={layers}
          selectedId={selectedId}
          actions={{ ...layerActions, dropFiles: (files) => void addFiles(files) }}
        />
        <p className="text-xs text-subtle">{t('multiComposition.keyboardHint')}</p>
      </div>

      <aside className="w-full min-w-0 shrink-0 space-y-4 rounded-2xl border border-line bg-surface p-4 lg:w-80">
        <ArtboardSize store={store} />

        <CompositionLayers store={store} />

        <ComposeForm store={store} elapsed={elapsed} compose={compose} />

        <CompositionResult store={store} resultRef={resultRef} />
      </aside>

      <CanvasImagePicker
        open={canvasPicker}
        onOpenChange={setCanvasPicker}
        max={room}
        onPick={(images) => void addFromCanvas(images)}
      />
      <AssetPicker
        open={assetPicker}
        onOpenChange={setAssetPicker}
        kind="image"
        max={Math.max(1, room)}
        onPick={(assets) => void addFromAssets(assets)}
      />
    </section>
  );
}
