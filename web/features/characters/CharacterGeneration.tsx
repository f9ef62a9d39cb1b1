// The Characters tool's generation parts: the settings (output, character style, aspect ratio) and the result
// with its download link and the engine that made it.
import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CHARACTER_ASPECT_RATIOS, CHARACTER_STYLES, type CharacterStyle } from '../../../common/api/characters.ts';
import { cn } from '../../ui/cn.ts';
import { EngineBadge } from '../../ui/EngineBadge.tsx';
import { inputClass } from '../../ui/Field.tsx';
import type { CharacterAspectRatio, CharacterOutput, CharacterResult } from './useCharacterGeneration.ts';

const STYLE_LABEL: Record<CharacterStyle, string> = { consistent: 'same', unique: 'unique', blend: 'blend' };

const chip = (active: boolean) =>
  cn(
    'rounded-lg border px-2.5 py-1 text-xs font-medium',
    active ? 'border-accent bg-accent text-accent-fg' : 'border-line text-muted hover:bg-surface-2',
  );

export function GenerationSettings({
  output,
  setOutput,
  style,
  setStyle,
  aspectRatio,
  setAspectRatio,
}: {
  output: CharacterOutput;
  setOutput: (output: CharacterOutput) => void;
  style: CharacterStyle;
  setStyle: (style: CharacterStyle) => void;
  aspectRatio: CharacterAspectRatio;
  setAspectRatio: (aspectRatio: CharacterAspectRatio) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="space-y-2">
      <legend className="text-xs font-semibold uppercase tracking-wide text-muted">{t('characters.settings')}</legend>
      <div className="flex flex-wrap gap-1.5" title={t('characters.output')}>
        {(['image', 'video'] as const).map((o) => (
          <button
            key={o}
            type="button"
            aria-pressed={output === o}
            className={chip(output === o)}
            onClick={() => setOutput(o)}
          >
            {t(`characters.outputs.${o}`)}
          </button>
        ))}
      </div>
      <div className="flex flex-wrap gap-1.5" title={t('characters.characterStyle')}>
        {CHARACTER_STYLES.map((s) => (
          <button
            key={s}
            type="button"
            aria-pressed={style === s}
            className={chip(style === s)}
            onClick={() => setStyle(s)}
          >
            {t(`characters.styles.${STYLE_LABEL[s]}`)}
          </button>
        ))}
      </div>
      <select
        aria-label={t('characters.aspectRatio')}
        value={aspectRatio}
        onChange={(e) => setAspectRatio(e.target.value as CharacterAspectRatio)}
        className={cn(inputClass, 'h-11')}
      >
        {CHARACTER_ASPECT_RATIOS.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
    </fieldset>
  );
}

export function GenerationResult({ result, prompt }: { result: CharacterResult; prompt: string }) {
  const { t } = useTranslation();
  return (
    <div data-testid="characters-result" className="space-y-2">
      {result.type === 'video' ? (
        // biome-ignore lint/a11y/useMediaCaption: generated video has no captions
        <video src={result.url} controls className="w-full rounded-xl" />
      ) : (
        <img src={result.url} alt={prompt} className="w-full rounded-xl" />
      )}
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <a
          href={result.url}
          download
          className="inline-flex items-center gap-1.5 text-sm font-medium text-accent hover:underline"
        >
          <Download className="size-4" aria-hidden />
          {t('characters.download')}
        </a>
        <EngineBadge engine={result.engine} className="text-muted" />
      </div>
    </div>
  );
}
