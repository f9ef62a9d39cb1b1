// The user's characters: the list heading with Create, then each character with its checkbox (selected for the
// next generation), Edit and Delete.
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Character } from '../../../common/api/characters.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { Spinner } from '../../ui/Spinner.tsx';

export function CharacterList({
  list,
  fetching,
  selected,
  onToggle,
  onOpenDialog,
  onDelete,
}: {
  list: Character[];
  fetching: boolean;
  selected: string[];
  onToggle: (id: string) => void;
  /** Opens the dialog on a new character (null) or on one to edit. */
  onOpenDialog: (editing: Character | null) => void;
  onDelete: (id: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <div className="flex items-center justify-between">
        <h3 className="text-xs font-semibold uppercase tracking-wide text-muted">
          {t('characters.list')} {fetching && <Spinner className="ms-1 inline size-3" />}
        </h3>
        <Button size="sm" variant="secondary" onClick={() => onOpenDialog(null)} data-testid="character-create">
          <Plus className="size-3.5" aria-hidden />
          {t('characters.create')}
        </Button>
      </div>
      {list.length === 0 ? (
        <p className="text-xs text-muted">{t('characters.empty')}</p>
      ) : (
        <ul className="space-y-1.5">
          {list.map((c) => (
            <li
              key={c.id}
              data-testid="character-item"
              className={cn(
                'flex items-center gap-2 rounded-xl border p-1.5',
                selected.includes(c.id) ? 'border-accent bg-accent-soft' : 'border-line',
              )}
            >
              <label className="flex min-w-0 flex-1 cursor-pointer items-center gap-2">
                <input type="checkbox" checked={selected.includes(c.id)} onChange={() => onToggle(c.id)} />
                <img src={c.imageUrl} alt="" className="size-9 shrink-0 rounded-lg object-cover" />
                <span className="min-w-0 flex-1 truncate text-sm">{c.name}</span>
              </label>
              <button
                type="button"
                aria-label={t('characters.editNamed', { name: c.name })}
                onClick={() => onOpenDialog(c)}
                className="grid size-7 place-items-center rounded-lg text-muted hover:bg-surface-2"
              >
                <Pencil className="size-3.5" aria-hidden />
              </button>
              <button
                type="button"
                aria-label={t('characters.deleteNamed', { name: c.name })}
                onClick={() => onDelete(c.id)}
                className="grid size-7 place-items-center rounded-lg text-muted hover:bg-surface-2"
              >
                <Trash2 className="size-3.5" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
