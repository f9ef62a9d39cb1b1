// The Creator tab's prompt: the text area with its word count, and the hint under it about the quality suffix
// that image and video prompts get.
import { Sparkles } from 'lucide-react';
import type { KeyboardEvent, RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { QUALITY_SUFFIX } from '../../../common/api/generation.constants.ts';
import { needsQualitySuffix, promptWordCount, type StudioMode } from '../../../common/rules/studio.ts';
import { cn } from '../../ui/cn.ts';
import { inputClass } from '../../ui/Field.tsx';

const PROMPT_MAX = 4000;

export function PromptField({
  id,
  inputRef,
  mode,
  prompt,
  onChange,
  onKeyDown,
}: {
  id: string;
  inputRef: RefObject<HTMLTextAreaElement | null>;
  mode: StudioMode;
  prompt: string;
  onChange: (prompt: string) => void;
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => void;
}) {
  const { t } = useTranslation();
  const suffixed = mode !== 'audio' && needsQualitySuffix(prompt);
  const words = promptWordCount(prompt);
  return (
    <div className="space-y-1.5">
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-fg">
          {t('studio.prompt.label')}
        </label>
        <span className="text-xs tabular-nums text-subtle">{t('studio.prompt.words', { count: words })}</span>
      </div>
      <textarea
        id={id}
        ref={inputRef}
        data-testid="prompt-input"
        value={prompt}
        maxLength={PROMPT_MAX}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
        placeholder={t(`studio.prompt.placeholder.${mode}`)}
        aria-describedby={`${id}-hint`}
        className={cn(inputClass, 'min-h-28 resize-y py-2.5 leading-relaxed')}
        rows={4}
      />
      <p
        id={`${id}-hint`}
        className="flex items-start gap-1.5 text-xs leading-snug text-subtle"
        data-testid="quality-suffix-hint"
        data-active={suffixed}
      >
        <Sparkles className={cn('mt-px size-3 shrink-0', suffixed ? 'text-accent' : 'text-subtle')} aria-hidden />
        {mode === 'audio'
          ? t('studio.prompt.audioHint')
          : suffixed
            ? t('studio.prompt.suffixWillBeAdded', { suffix: QUALITY_SUFFIX.replace(/^,\s*/, '') })
            : t('studio.prompt.suffixRule')}
      </p>
    </div>
  );
}
