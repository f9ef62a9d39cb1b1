// What the canvas tools view does with the canvas: generate an image from the prompt, pin images to the sequence.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { CANVAS } from '../../../common/api/canvas-images.constants.ts';
import { generateOnCanvas } from '../canvas/actions.ts';
import { type CanvasImage, useCanvas } from '../canvas/store.ts';
import { pinToSequence } from '../sequences/store.ts';

/** Pins images to the cinema sequence, in order (one already pinned is skipped with its own message). */
export function pinAll(images: readonly CanvasImage[]): void {
  for (const image of images) pinToSequence(image);
}

export function useGenerate() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [prompt, setPrompt] = useState('');
  const run = async () => {
    if (busy) return false;
    if (!prompt.trim()) {
      toast.error(t('canvasEditor.promptRequired'));
      return false;
    }
    setBusy(true);
    try {
      const result = await generateOnCanvas(prompt);
      if (!result.ok) {
        toast.error(t(result.errorKey, { max: CANVAS.maxImages }));
        return false;
      }
      const wide = useCanvas.getState().format === '4K|TV';
      toast.success(t(wide ? 'canvasEditor.saved.wide' : 'canvasEditor.saved.square'));
      setPrompt('');
      return true;
    } finally {
      setBusy(false);
    }
  };
  return { busy, run, prompt, setPrompt };
}
