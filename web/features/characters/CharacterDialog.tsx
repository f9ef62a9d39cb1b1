// The dialog that creates or edits a character: name, description, image (uploaded), style, personality and
// backstory. Saving puts the character into the cached list.
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CHARACTER_MESSAGES, type Character } from '../../../common/api/characters.ts';
import { errorMessage } from '../../api/client.ts';
import { uploadFiles } from '../../api/uploads.ts';
import { Button } from '../../ui/Button.tsx';
import { TextAreaField, TextField } from '../../ui/Field.tsx';
import { ModalDialog } from '../../ui/ModalDialog.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { cacheCharacters, charactersKey, saveCharacter } from './api.ts';

interface Draft {
  name: string;
  description: string;
  imageUrl: string;
  style: string;
  personality: string;
  backstory: string;
}
const EMPTY: Draft = { name: '', description: '', imageUrl: '', style: '', personality: '', backstory: '' };

/** The dialog's fields, the image upload and the save; `onSaved` runs once the list holds the saved character. */
function useCharacterForm(editing: Character | null, onSaved: () => void) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() =>
    editing
      ? {
          name: editing.name,
          description: editing.description ?? '',
          imageUrl: editing.imageUrl,
          style: editing.style ?? '',
          personality: editing.personality ?? '',
          backstory: editing.backstory ?? '',
        }
      : EMPTY,
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof Draft) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));

  async function upload(file: File | undefined) {
    if (!file) return;
    setBusy(true);
    setError(null);
    const [result] = await uploadFiles([file], { purpose: 'characters' });
    setBusy(false);
    if (result?.status === 'fulfilled') set('imageUrl')(result.value.url);
    else setError(errorMessage(result?.status === 'rejected' ? result.reason : null, 'Upload failed'));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!draft.name.trim() || !draft.description.trim() || !draft.imageUrl) {
      setError(CHARACTER_MESSAGES.requiredFields);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const saved = await saveCharacter(editing?.id ?? null, {
        name: draft.name,
        description: draft.description,
        images: [draft.imageUrl, ...(editing?.images.filter((u) => u !== draft.imageUrl) ?? [])],
        style: draft.style,
        personality: draft.personality,
        backstory: draft.backstory,
      });
      queryClient.setQueryData<Character[]>(charactersKey, (list = []) => {
        const next = editing ? list.map((c) => (c.id === saved.id ? saved : c)) : [saved, ...list];
        cacheCharacters(next);
        return next;
      });
      onSaved();
    } catch (e) {
      setError(errorMessage(e, t('characters.saveFailed')));
    } finally {
      setBusy(false);
    }
  }

  return { draft, set, error, busy, upload, submit };
}

export function CharacterDialog({
  editing,
  open,
  onOpenChange,
}: {
  editing: Character | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const { draft, set, error, busy, upload, submit } = useCharacterForm(editing, () => onOpenChange(false));
  const imageInputId = useId();

  return (
    <ModalDialog
      open={open}
      onOpenChange={onOpenChange}
      title={editing ? t('characters.edit') : t('characters.create')}
      testId="character-dialog"
      className="max-w-lg"
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        <TextField
          label={t('characters.name')}
          value={draft.name}
          onChange={(e) => set('name')(e.target.value)}
          data-testid="character-name"
          required
        />
        <TextAreaField
          label={t('characters.description')}
          value={draft.description}
          onChange={(e) => set('description')(e.target.value)}
          rows={2}
          required
        />
        <div className="space-y-1.5">
          <label htmlFor={imageInputId} className="text-sm font-medium">
            {t('characters.image')}
          </label>
          <div className="flex items-center gap-3">
            {draft.imageUrl && (
              <img src={draft.imageUrl} alt="" className="size-14 rounded-lg border border-line object-cover" />
            )}
            <input
              id={imageInputId}
              type="file"
              accept="image/png,image/jpeg,image/webp,image/gif"
              onChange={(e) => void upload(e.target.files?.[0])}
              data-testid="character-image"
              className="text-xs"
            />
          </div>
        </div>
        <TextField label={t('characters.style')} value={draft.style} onChange={(e) => set('style')(e.target.value)} />
        <TextAreaField
          label={t('characters.personality')}
          value={draft.personality}
          onChange={(e) => set('personality')(e.target.value)}
          rows={2}
        />
        <TextAreaField
          label={t('characters.backstory')}
          value={draft.backstory}
          onChange={(e) => set('backstory')(e.target.value)}
          rows={2}
        />
        {error && (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        )}
        <div className="sticky -bottom-4 -mx-5 -mb-4 flex justify-end gap-2 border-t border-line bg-surface px-5 py-3">
          <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
            {t('characters.cancel')}
          </Button>
          <Button type="submit" disabled={busy} data-testid="character-save">
            {busy ? <Spinner /> : t('characters.save')}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
