import { X } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addTag, PERSONA_LIMITS } from '../../../common/rules/personas.ts';
import { inputClass } from '../../ui/Field.tsx';

/** Tags: typed text is added with Enter (trimmed, no duplicates) and shown as removable chips. */
export function TagsInput({ tags, onChange }: { tags: string[]; onChange: (tags: string[]) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState('');

  const commit = () => {
    const next = addTag(tags, text);
    if (next.length !== tags.length) onChange(next.slice(0, PERSONA_LIMITS.maxTags));
    setText('');
  };

  return (
    <div className="min-w-0 space-y-1.5">
      <label htmlFor={id} className="text-sm font-medium text-fg">
        {t('personas.form.tags')}
      </label>
      <input
        id={id}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            // Enter adds the tag and never submits the form.
            event.preventDefault();
            commit();
          } else if (event.key === 'Backspace' && text === '' && tags.length > 0) {
            onChange(tags.slice(0, -1));
          }
        }}
        maxLength={PERSONA_LIMITS.tagMax}
        disabled={tags.length >= PERSONA_LIMITS.maxTags}
        placeholder={t('personas.form.tagsPlaceholder')}
        aria-describedby={`${id}-hint`}
        className={`${inputClass} h-11`}
        data-testid="persona-tag-input"
      />
      <p id={`${id}-hint`} className="text-xs text-subtle">
        {t('personas.form.tagsHint')}
      </p>
      {tags.length > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label={t('personas.form.tags')}>
          {tags.map((tag) => (
            <li
              key={tag}
              data-testid="persona-tag"
              className="inline-flex items-center gap-1 rounded-full border border-accent/30 bg-accent-soft py-0.5 ps-2.5 pe-1 text-xs font-medium text-fg"
            >
              {tag}
              <button
                type="button"
                onClick={() => onChange(tags.filter((x) => x !== tag))}
                aria-label={t('personas.form.removeTag', { tag })}
                className="grid size-5 place-items-center rounded-full text-muted hover:bg-surface-3 hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
              >
                <X className="size-3" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
