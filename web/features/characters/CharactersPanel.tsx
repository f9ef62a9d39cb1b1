import { useQueryClient } from '@tanstack/react-query';
import { Download, Pencil, Plus, Trash2, UsersRound, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CHARACTER_ASPECT_RATIOS,
  CHARACTER_MESSAGES,
  CHARACTER_STYLES,
  type Character,
  type CharacterStyle,
} from '../../../common/api/characters.ts';
import { uploadFiles } from '../../api/uploads.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { inputClass, TextAreaField, TextField } from '../../ui/Field.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { ToolPanelHeader } from '../../ui/ToolPanelHeader.tsx';
import {
  cacheCharacters,
  charactersKey,
  deleteCharacter,
  generateWithCharacters,
  saveCharacter,
  useCharacters,
  waitForResult,
} from './api.ts';

const errorText = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback;

interface Draft {
  name: string;
  description: string;
  imageUrl: string;
  style: string;
  personality: string;
  backstory: string;
}
const EMPTY: Draft = { name: '', description: '', imageUrl: '', style: '', personality: '', backstory: '' };

function CharacterDialog({
  editing,
  open,
  onOpenChange,
}: {
  editing: Character | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
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
    else setError(errorText(result?.status === 'rejected' ? result.reason : null, 'Upload failed'));
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
      onOpenChange(false);
    } catch (e) {
      setError(errorText(e, t('characters.saveFailed')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60 backdrop-blur-[2px]" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[min(32rem,92vw)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-line bg-surface p-5 shadow-xl"
        >
          <div className="mb-4 flex items-center gap-2">
            <Dialog.Title className="flex-1 text-base font-semibold">
              {editing ? t('characters.edit') : t('characters.create')}
            </Dialog.Title>
            <Dialog.Close
              aria-label={t('common.close')}
              className="grid size-8 place-items-center rounded-lg text-muted hover:bg-surface-2"
            >
              <X className="size-4" aria-hidden />
            </Dialog.Close>
          </div>
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
              <span className="text-sm font-medium">{t('characters.image')}</span>
              <div className="flex items-center gap-3">
                {draft.imageUrl && (
                  <img src={draft.imageUrl} alt="" className="size-14 rounded-lg border border-line object-cover" />
                )}
                <input
                  type="file"
                  accept="image/png,image/jpeg,image/webp,image/gif"
                  onChange={(e) => void upload(e.target.files?.[0])}
                  data-testid="character-image"
                  className="text-xs"
                />
              </div>
            </div>
            <TextField
              label={t('characters.style')}
              value={draft.style}
              onChange={(e) => set('style')(e.target.value)}
            />
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
            <div className="flex justify-end gap-2">
              <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
                {t('characters.cancel')}
              </Button>
              <Button type="submit" disabled={busy} data-testid="character-save">
                {busy ? <Spinner /> : t('characters.save')}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

const STYLE_LABEL: Record<CharacterStyle, string> = { consistent: 'same', unique: 'unique', blend: 'blend' };

/** The Characters side tool: the user's characters, create/edit, and generation with the selected ones. */
export function CharactersPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: list = [], isFetching } = useCharacters();
  const [dialog, setDialog] = useState<{ open: boolean; editing: Character | null; key: number }>({
    open: false,
    editing: null,
    key: 0,
  });
  const [selected, setSelected] = useState<string[]>([]);
  const [output, setOutput] = useState<'image' | 'video'>('image');
  const [style, setStyle] = useState<CharacterStyle>('consistent');
  const [aspectRatio, setAspectRatio] = useState<(typeof CHARACTER_ASPECT_RATIOS)[number]>('1:1');
  const [prompt, setPrompt] = useState('');
  const [scenario, setScenario] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ url: string; type: 'image' | 'video' } | null>(null);

  const openDialog = (editing: Character | null) => setDialog((d) => ({ open: true, editing, key: d.key + 1 }));
  const toggle = (id: string) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));

  async function remove(id: string) {
    try {
      await deleteCharacter(id);
      setSelected((s) => s.filter((x) => x !== id));
      queryClient.setQueryData<Character[]>(charactersKey, (l = []) => {
        const next = l.filter((c) => c.id !== id);
        cacheCharacters(next);
        return next;
      });
    } catch (e) {
      setError(errorText(e, t('characters.deleteFailed')));
    }
  }

  async function generate() {
    const ids = selected.filter((id) => list.some((c) => c.id === id));
    if (!prompt.trim() || ids.length === 0) {
      setError(CHARACTER_MESSAGES.promptAndCharacter);
      return;
    }
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const reply = await generateWithCharacters({
        service: 'stability',
        type: output === 'video' ? 'text-to-video' : 'text-to-image',
        prompt,
        scenario: scenario || undefined,
        characterIds: ids,
        aspectRatio,
        style,
        numImages: 1,
      });
      const url = reply.data.url ?? (await waitForResult(reply.data.taskId));
      setResult({ url, type: reply.data.type });
    } catch (e) {
      setError(errorText(e, CHARACTER_MESSAGES.generationFailed));
    } finally {
      setBusy(false);
    }
  }

  const chip = (active: boolean) =>
    cn(
      'rounded-lg border px-2.5 py-1 text-xs font-medium',
      active ? 'border-accent bg-accent text-accent-fg' : 'border-line text-muted hover:bg-surface-2',
    );

  return (
    <aside
      data-testid="tool-panel"
      data-tool="characters"
      aria-labelledby="tool-panel-characters"
      className="min-w-0 shrink-0 rounded-2xl border border-line bg-surface p-4 lg:sticky lg:top-20 lg:w-80 lg:self-start"
    >
      <div data-testid="characters" className="space-y-4">
        <ToolPanelHeader
          icon={UsersRound}
          title={t('studio.tools.characters.title')}
          titleId="tool-panel-characters"
          description={t('characters.intro')}
          onClose={onClose}
        />

        <div className="flex items-center justify-between">
          <h3 className="text-xs font-semibold uppercase tracking-wide text-muted">
            {t('characters.list')} {isFetching && <Spinner className="ms-1 inline size-3" />}
          </h3>
          <Button size="sm" variant="secondary" onClick={() => openDialog(null)} data-testid="character-create">
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
                  <input type="checkbox" checked={selected.includes(c.id)} onChange={() => toggle(c.id)} />
                  <img src={c.imageUrl} alt="" className="size-9 shrink-0 rounded-lg object-cover" />
                  <span className="min-w-0 flex-1 truncate text-sm">{c.name}</span>
                </label>
                <button
                  type="button"
                  aria-label={t('characters.editNamed', { name: c.name })}
                  onClick={() => openDialog(c)}
                  className="grid size-7 place-items-center rounded-lg text-muted hover:bg-surface-2"
                >
                  <Pencil className="size-3.5" aria-hidden />
                </button>
                <button
                  type="button"
                  aria-label={t('characters.deleteNamed', { name: c.name })}
                  onClick={() => void remove(c.id)}
                  className="grid size-7 place-items-center rounded-lg text-muted hover:bg-surface-2"
                >
                  <Trash2 className="size-3.5" aria-hidden />
                </button>
              </li>
            ))}
          </ul>
        )}

        <fieldset className="space-y-2">
          <legend className="text-xs font-semibold uppercase tracking-wide text-muted">
            {t('characters.settings')}
          </legend>
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
            onChange={(e) => setAspectRatio(e.target.value as typeof aspectRatio)}
            className={cn(inputClass, 'h-11')}
          >
            {CHARACTER_ASPECT_RATIOS.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </fieldset>
        <TextAreaField
          label={t('characters.prompt')}
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
          rows={3}
        />
        <TextAreaField
          label={t('characters.scenario')}
          value={scenario}
          onChange={(e) => setScenario(e.target.value)}
          rows={2}
        />
        {error && (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        )}
        <Button className="w-full" onClick={() => void generate()} disabled={busy} data-testid="characters-generate">
          {busy ? <Spinner /> : t('characters.generate')}
        </Button>
        {result && (
          <div data-testid="characters-result" className="space-y-2">
            {result.type === 'video' ? (
              // biome-ignore lint/a11y/useMediaCaption: generated video has no captions
              <video src={result.url} controls className="w-full rounded-xl" />
            ) : (
              <img src={result.url} alt={prompt} className="w-full rounded-xl" />
            )}
            <a
              href={result.url}
              download
              className="inline-flex items-center gap-1.5 text-sm font-medium text-accent hover:underline"
            >
              <Download className="size-4" aria-hidden />
              {t('characters.download')}
            </a>
          </div>
        )}
      </div>
      <CharacterDialog
        key={dialog.key}
        editing={dialog.editing}
        open={dialog.open}
        onOpenChange={(open) => setDialog((d) => ({ ...d, open }))}
      />
    </aside>
  );
}
