// The stage's bottom toolbar: Upload, Generate, the select / drag / pan tools and the 4K / 2K format.
import { Hand, ImagePlus, MousePointer2, Move, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { CANVAS, type CanvasFormat } from '../../../common/api/canvas-images.constants.ts';
import { cn } from '../../ui/cn.ts';
import { uploadToCanvas } from '../canvas/actions.ts';
import { type CanvasTool, useCanvas } from '../canvas/store.ts';
import type { useGenerate } from './overlayActions.ts';

const TOOLS: { tool: CanvasTool; Icon: typeof Hand }[] = [
  { tool: 'select', Icon: MousePointer2 },
  { tool: 'drag', Icon: Move },
  { tool: 'pan', Icon: Hand },
];
const FORMATS: { format: CanvasFormat; key: '4k' | '2k' }[] = [
  { format: '4K|TV', key: '4k' },
  { format: '2K|Mobile', key: '2k' },
];

export function Toolbar({ generate }: { generate: ReturnType<typeof useGenerate> }) {
  const { t } = useTranslation();
  const tool = useCanvas((s) => s.tool);
  const format = useCanvas((s) => s.format);
  const setTool = useCanvas((s) => s.setTool);
  const setFormat = useCanvas((s) => s.setFormat);
  const setInputMode = useCanvas((s) => s.setInputMode);
  const fileRef = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);

  const onFiles = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    setInputMode('upload');
    setUploading(true);
    try {
      const result = await uploadToCanvas([...files]);
      if (result.ok) toast.success(t('canvasEditor.uploaded', { count: result.images.length }));
      else toast.error(t(result.errorKey, { max: CANVAS.maxImages }));
      if (result.ok && result.failed > 0) toast.error(t('canvasOverlay.someUploadsFailed', { count: result.failed }));
    } finally {
      setUploading(false);
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  const onGenerate = () => {
    setInputMode('generate');
    if (generate.prompt.trim()) void generate.run();
    else document.getElementById('canvas-prompt')?.focus();
  };

  const item = 'inline-flex h-9 items-center gap-1.5 rounded-lg px-2.5 text-sm font-medium transition-colors';
  return (
    <div
      role="toolbar"
      aria-label={t('canvasEditor.toolbar')}
      className="flex flex-wrap items-center justify-center gap-1 rounded-xl border border-line bg-surface p-1.5 shadow-sm"
    >
      <input
        ref={fileRef}
        type="file"
        accept="image/png,image/jpeg,image/webp"
        multiple
        hidden
        data-testid="canvas-upload-input"
        onChange={(e) => void onFiles(e.target.files)}
      />
      <button
        type="button"
        data-testid="canvas-upload"
        disabled={uploading}
        onClick={() => fileRef.current?.click()}
        className={cn(item, 'text-fg hover:bg-surface-2 disabled:opacity-50')}
      >
        <Upload className="size-4" aria-hidden />
        {uploading ? t('canvasEditor.uploading') : t('canvasEditor.upload')}
      </button>
      <button
        type="button"
        data-testid="canvas-generate"
        disabled={generate.busy}
        onClick={onGenerate}
        className={cn(item, 'text-fg hover:bg-surface-2 disabled:opacity-50')}
      >
        <ImagePlus className="size-4" aria-hidden />
        {generate.busy ? t('canvasEditor.generating') : t('canvasEditor.generate')}
      </button>
      <span className="mx-1 h-6 w-px bg-line" aria-hidden />
      {TOOLS.map(({ tool: id, Icon }) => (
        <button
          key={id}
          type="button"
          data-testid={`canvas-tool-${id}`}
          aria-pressed={tool === id}
          onClick={() => setTool(id)}
          className={cn(item, tool === id ? 'bg-accent text-accent-fg' : 'text-muted hover:bg-surface-2 hover:text-fg')}
        >
          <Icon className="size-4" aria-hidden />
          {t(`canvasEditor.tools.${id}`)}
        </button>
      ))}
      <span className="mx-1 h-6 w-px bg-line" aria-hidden />
      <fieldset className="flex gap-1" aria-label={t('canvasEditor.formatLabel')}>
        {FORMATS.map(({ format: id, key }) => (
          <button
            key={id}
            type="button"
            data-testid={`canvas-format-${key}`}
            aria-pressed={format === id}
            title={t(`canvasEditor.formatHint.${key}`)}
            onClick={() => setFormat(id)}
            className={cn(
              item,
              format === id
                ? 'bg-accent-soft text-accent ring-1 ring-accent'
                : 'text-muted hover:bg-surface-2 hover:text-fg',
            )}
          >
            {t(`canvasEditor.formats.${key}`)}
          </button>
        ))}
      </fieldset>
    </div>
  );
}
