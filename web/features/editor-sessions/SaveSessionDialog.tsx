// "Save session" (canvas spec 2, 4, 5, 8): a name (default: the tool's title and the date), the active tool's
// state captured through the registry, normalised, checked and measured here, then POST — or PUT when the
// user chooses to update the session that is open.
import { useQueryClient } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { EDITOR_SESSION_MESSAGES, type EditorSessionType } from '../../../common/rules/editor-sessions.ts';
import { Button } from '../../ui/Button.tsx';
import { Segmented } from '../../ui/controls.tsx';
import { DialogShell } from '../../ui/DialogShell.tsx';
import { FormMessage, TextField } from '../../ui/Field.tsx';
import { createSession, sessionErrorText, sessionsKey, updateSession } from './api.ts';
import { sessionMessage, useEditorOverlay } from './overlay.ts';
import { sessionParticipant } from './registry.ts';
import { defaultSessionName, prepareSessionData } from './save.ts';

type Target = 'update' | 'new';

export function SaveSessionDialog({
  open,
  onOpenChange,
  type,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  type: EditorSessionType;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const current = useEditorOverlay((s) => s.current);
  const setCurrent = useEditorOverlay((s) => s.setCurrent);
  const updatable = current && current.type === type ? current : null;
  const [target, setTarget] = useState<Target>('new');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const tool = t(`editorSessions.types.${type}`);

  // Fresh defaults every time the dialog opens.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only on open
  useEffect(() => {
    if (!open) return;
    setTarget(updatable ? 'update' : 'new');
    setName(updatable ? updatable.name : defaultSessionName(tool, new Date(), i18n.language));
    setError(undefined);
  }, [open]);

  const chooseTarget = (next: Target) => {
    setTarget(next);
    if (next === 'update' && updatable) setName(updatable.name);
    if (next === 'new') setName(defaultSessionName(tool, new Date(), i18n.language));
  };

  const fail = (message: string) => {
    const text = sessionMessage(t, message);
    setError(text);
    toast.error(text);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const trimmed = name.trim();
    const participant = sessionParticipant(type);
    if (!trimmed || !participant) return fail(EDITOR_SESSION_MESSAGES.cannotSave);
    const prepared = prepareSessionData(type, participant.capture());
    if (!prepared.ok) return fail(prepared.message);
    setSaving(true);
    setError(undefined);
    try {
      const thumbnail = (await participant.thumbnail?.()) ?? null;
      const body = {
        name: trimmed,
        component_type: type,
        thumbnail_url: thumbnail,
        data: prepared.data,
        size_bytes: prepared.sizeBytes,
      };
      const saved =
        target === 'update' && updatable ? await updateSession(updatable.id, body) : await createSession(body);
      setCurrent({ id: saved.id, name: saved.name, type });
      await queryClient.invalidateQueries({ queryKey: sessionsKey });
      toast.success(sessionMessage(t, EDITOR_SESSION_MESSAGES.saved(saved.name)));
      onOpenChange(false);
    } catch (caught) {
      const fallback = target === 'update' ? EDITOR_SESSION_MESSAGES.updateFailed : EDITOR_SESSION_MESSAGES.saveFailed;
      fail(sessionErrorText(caught, fallback));
    } finally {
      setSaving(false);
    }
  };

  return (
    <DialogShell
      open={open}
      onOpenChange={(next) => !saving && onOpenChange(next)}
      title={t('editorSessions.saveDialog.title')}
      description={t('editorSessions.saveDialog.description', { tool })}
      testId="session-save-dialog"
    >
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        {updatable && (
          <Segmented<Target>
            label={t('editorSessions.saveDialog.saveAs')}
            value={target}
            onChange={chooseTarget}
            layout="fill"
            size="sm"
            testIdPrefix="session-save-target"
            options={[
              { value: 'update', label: t('editorSessions.saveDialog.update') },
              { value: 'new', label: t('editorSessions.saveDialog.asNew') },
            ]}
          />
        )}
        {updatable && target === 'update' && (
          <p className="-mt-2 text-xs text-muted" data-testid="session-save-update-hint">
            {t('editorSessions.saveDialog.updateHint', { name: updatable.name })}
          </p>
        )}
        <TextField
          label={t('editorSessions.saveDialog.name')}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setError(undefined);
          }}
          maxLength={200}
          required
          autoFocus
          data-testid="session-name"
          error={name.trim() ? undefined : t('editorSessions.saveDialog.nameRequired')}
        />
        {error && <FormMessage>{error}</FormMessage>}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" size="sm" onClick={() => onOpenChange(false)} disabled={saving}>
            {t('editorSessions.saveDialog.cancel')}
          </Button>
          <Button type="submit" size="sm" loading={saving} disabled={!name.trim()} data-testid="session-save-submit">
            {!saving && <Save className="size-4" aria-hidden />}
            {saving ? t('editorSessions.saveDialog.saving') : t('editorSessions.saveDialog.submit')}
          </Button>
        </div>
      </form>
    </DialogShell>
  );
}
