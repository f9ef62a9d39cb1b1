// "Sessions" (canvas spec 2, 7, 8, 9): the saved sessions of every tool (or one), 10 a page through the
// cursor API with the earlier cursors kept for going back, and Load, Rename and Delete per session.

import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import {
  ChevronLeft,
  ChevronRight,
  CircleAlert,
  FolderOpen,
  History,
  ImageOff,
  Pencil,
  RotateCw,
  Trash2,
} from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { EditorSessionSummary } from '../../../common/api/editor-sessions.ts';
import {
  EDITOR_SESSION_MESSAGES,
  EDITOR_SESSION_TYPES,
  type EditorSessionType,
} from '../../../common/rules/editor-sessions.ts';
import { ApiError } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { ConfirmPopup } from '../../ui/ConfirmPopup.tsx';
import { cn } from '../../ui/cn.ts';
import { Segmented } from '../../ui/controls.tsx';
import { DialogShell } from '../../ui/DialogShell.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { deleteSession, listSessions, sessionErrorText, sessionsKey, updateSession } from './api.ts';
import { sessionMessage, useEditorOverlay } from './overlay.ts';

type Filter = EditorSessionType | 'all';

function useFormatters() {
  const { i18n } = useTranslation();
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const kb = new Intl.NumberFormat(i18n.language, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 1 });
  const mb = new Intl.NumberFormat(i18n.language, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 2 });
  return {
    date: (iso: string) => date.format(new Date(iso)),
    size: (bytes: number) => (bytes >= 1024 * 1024 ? mb.format(bytes / 1024 / 1024) : kb.format(bytes / 1024)),
  };
}

/** A failed call: the spec message, with what the server said under it. */
function toastFailure(t: TFunction, error: unknown, message: string) {
  toast.error(sessionMessage(t, message), { description: sessionErrorText(error, message) });
}

function DeleteButton({
  session,
  name,
  onDeleted,
}: {
  session: EditorSessionSummary;
  name: string;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await deleteSession(session.id);
      toast.success(sessionMessage(t, EDITOR_SESSION_MESSAGES.deleted));
      setOpen(false);
      onDeleted();
    } catch (error) {
      toastFailure(t, error, EDITOR_SESSION_MESSAGES.deleteFailed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <ConfirmPopup
      open={open}
      onOpenChange={(next) => !busy && setOpen(next)}
      pending={busy}
      trigger={
        <Button
          variant="ghost"
          size="sm"
          className="px-2 hover:text-danger"
          data-testid="session-delete"
          aria-label={`${t('editorSessions.list.delete')}: ${name}`}
          title={t('editorSessions.list.delete')}
        >
          <Trash2 className="size-4" aria-hidden />
        </Button>
      }
      title={t('editorSessions.list.deleteTitle')}
      body={t('editorSessions.list.deleteBody', { name })}
      cancelLabel={t('editorSessions.list.cancel')}
      confirmLabel={t('editorSessions.list.delete')}
      onConfirm={() => void confirm()}
      testId="session-delete-confirm"
      confirmTestId="session-delete-ok"
      layerClassName="z-[60]"
    />
  );
}

function RenameForm({
  session,
  onDone,
  onRenamed,
}: {
  session: EditorSessionSummary;
  onDone: () => void;
  onRenamed: (name: string) => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(session.name);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed || busy) return;
    if (trimmed === session.name) return onDone();
    setBusy(true);
    try {
      const saved = await updateSession(session.id, { name: trimmed });
      toast.success(t('editorSessions.list.renamed'));
      onRenamed(saved.name);
      onDone();
    } catch (error) {
      toastFailure(t, error, EDITOR_SESSION_MESSAGES.updateFailed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="flex w-full flex-wrap items-center gap-2">
      <input
        // biome-ignore lint/a11y/noAutofocus: the user just asked to rename this row
        autoFocus
        value={name}
        maxLength={200}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onDone();
          }
        }}
        aria-label={t('editorSessions.list.renameLabel', { name: session.name })}
        data-testid="session-rename-input"
        className={cn(inputClass, 'h-9 min-w-0 flex-1 basis-40')}
      />
      <Button type="submit" size="sm" loading={busy} disabled={!name.trim()} data-testid="session-rename-save">
        {t('editorSessions.list.renameSave')}
      </Button>
      <Button variant="secondary" size="sm" onClick={onDone} disabled={busy}>
        {t('editorSessions.list.cancel')}
      </Button>
    </form>
  );
}

function SessionRow({
  session,
  onLoad,
  onChanged,
}: {
  session: EditorSessionSummary;
  onLoad: (session: EditorSessionSummary) => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const [renaming, setRenaming] = useState(false);
  const current = useEditorOverlay((s) => s.current);
  const setCurrent = useEditorOverlay((s) => s.setCurrent);
  const isCurrent = current?.id === session.id;
  const known = (EDITOR_SESSION_TYPES as readonly string[]).includes(session.component_type);
  const typeLabel = known ? t(`editorSessions.types.${session.component_type}`) : session.component_type;
  // The autosave is named by the editor, in the user's language, and is not renamed.
  const name = session.autosave ? t('editorSessions.autosave.name', { tool: typeLabel }) : session.name;

  return (
    <li
      data-testid="session-row"
      data-id={session.id}
      data-type={session.component_type}
      className="flex flex-wrap items-center gap-3 rounded-xl border border-line bg-surface-2 p-2.5"
    >
      <div className="grid h-12 w-18 shrink-0 place-items-center overflow-hidden rounded-lg bg-surface-3 text-subtle">
        {session.autosave ? (
          <History className="size-5 text-accent" aria-hidden />
        ) : session.thumbnail_url ? (
          <img src={session.thumbnail_url} alt="" className="size-full object-cover" data-testid="session-thumbnail" />
        ) : (
          <ImageOff className="size-4" aria-label={t('editorSessions.list.noPreview')} />
        )}
      </div>
      <div className="min-w-0 flex-1 basis-40">
        <p className="flex items-center gap-2">
          <span className="truncate text-sm font-medium text-fg" data-testid="session-name-text">
            {name}
          </span>
          {session.autosave && (
            <span
              data-testid="session-autosave-badge"
              title={t('editorSessions.autosave.hint')}
              className="shrink-0 rounded-full bg-accent-soft px-2 py-0.5 text-xs font-medium text-accent"
            >
              {t('editorSessions.autosave.badge')}
            </span>
          )}
          {isCurrent && (
            <span className="shrink-0 rounded-full bg-accent-soft px-2 py-0.5 text-xs font-medium text-accent">
              {t('editorSessions.list.current')}
            </span>
          )}
        </p>
        <p className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs text-muted">
          <span className="rounded bg-surface-3 px-1.5 py-px font-medium text-fg/80" data-testid="session-type">
            {typeLabel}
          </span>
          <span className="tabular-nums">{format.size(session.size_bytes)}</span>
          <span>{t('editorSessions.list.updated', { date: format.date(session.updated_at) })}</span>
        </p>
      </div>
      {renaming ? (
        <RenameForm
          session={session}
          onDone={() => setRenaming(false)}
          onRenamed={(name) => {
            if (isCurrent && current) setCurrent({ ...current, name });
            onChanged();
          }}
        />
      ) : (
        <div className="ms-auto flex shrink-0 items-center gap-1">
          <Button size="sm" data-testid="session-load" onClick={() => onLoad(session)} disabled={!known}>
            <FolderOpen className="size-4" aria-hidden />
            {t('editorSessions.list.load')}
          </Button>
          {!session.autosave && (
            <Button
              variant="ghost"
              size="sm"
              className="px-2"
              data-testid="session-rename"
              aria-label={`${t('editorSessions.list.rename')}: ${session.name}`}
              title={t('editorSessions.list.rename')}
              onClick={() => setRenaming(true)}
            >
              <Pencil className="size-4" aria-hidden />
            </Button>
          )}
          <DeleteButton
            session={session}
            name={name}
            onDeleted={() => {
              if (isCurrent) setCurrent(null);
              onChanged();
            }}
          />
        </div>
      )}
    </li>
  );
}

export function SessionsDialog({
  open,
  onOpenChange,
  onLoad,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onLoad: (session: EditorSessionSummary) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<Filter>('all');
  // cursors[i] opens page i; page 0 has none. Kept so Previous goes back without the server's help.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [page, setPage] = useState(0);
  const type = filter === 'all' ? null : filter;
  const cursor = cursors[page] ?? null;

  const query = useQuery({
    queryKey: [...sessionsKey, type, cursor],
    queryFn: ({ signal }) => listSessions({ type, cursor }, signal),
    enabled: open,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

  useEffect(() => {
    if (open) return;
    setCursors([null]);
    setPage(0);
  }, [open]);

  const rows = query.data?.data ?? [];
  const hasMore = query.data?.pagination.has_more ?? false;
  const nextCursor = query.data?.pagination.next_cursor ?? null;

  // Deleting the last row of a later page goes back a page.
  useEffect(() => {
    if (!query.isPlaceholderData && query.isSuccess && rows.length === 0 && page > 0) setPage((p) => p - 1);
  }, [query.isPlaceholderData, query.isSuccess, rows.length, page]);

  const changeFilter = (next: Filter) => {
    setFilter(next);
    setCursors([null]);
    setPage(0);
  };
  const goNext = () => {
    if (!hasMore || !nextCursor) return;
    setCursors((list) => [...list.slice(0, page + 1), nextCursor]);
    setPage((p) => p + 1);
  };
  const refresh = () => void queryClient.invalidateQueries({ queryKey: sessionsKey });

  const filterOptions = [
    { value: 'all' as Filter, label: t('editorSessions.list.all') },
    ...EDITOR_SESSION_TYPES.map((value) => ({ value: value as Filter, label: t(`editorSessions.types.${value}`) })),
  ];

  let body: ReactNode;
  if (query.isPending) {
    body = (
      <div className="flex flex-col items-center gap-2 py-10 text-sm text-muted" data-testid="sessions-loading">
        <Spinner label={t('editorSessions.list.loading')} />
        {t('editorSessions.list.loading')}
      </div>
    );
  } else if (query.isError) {
    body = (
      <div
        role="alert"
        data-testid="sessions-error"
        className="flex flex-col items-center gap-3 rounded-xl border border-danger/30 bg-danger-soft px-4 py-8 text-center"
      >
        <CircleAlert className="size-6 text-danger" aria-hidden />
        {/* Spec: unavailable storage shows 'Database setup required' (503 storage_unavailable). */}
        {query.error instanceof ApiError && query.error.code === 'storage_unavailable' ? (
          <>
            <p className="text-sm font-medium text-fg" data-testid="sessions-setup-required">
              {sessionMessage(t, EDITOR_SESSION_MESSAGES.databaseSetupRequired)}
            </p>
            <p className="max-w-sm text-xs text-muted" data-testid="sessions-setup-hint">
              {t('editorSessions.list.setupRequiredHint')}
            </p>
          </>
        ) : (
          <>
            <p className="text-sm font-medium text-fg">{sessionMessage(t, EDITOR_SESSION_MESSAGES.loadListFailed)}</p>
            <p className="text-xs text-muted">
              {sessionErrorText(query.error, EDITOR_SESSION_MESSAGES.loadListFailed)}
            </p>
          </>
        )}
        <Button variant="secondary" size="sm" onClick={() => void query.refetch()} data-testid="sessions-retry">
          <RotateCw className="size-4" aria-hidden />
          {t('editorSessions.list.retry')}
        </Button>
      </div>
    );
  } else if (rows.length === 0) {
    body = (
      <div
        data-testid="sessions-empty"
        className="flex flex-col items-center gap-2 rounded-xl border border-dashed border-line-strong px-4 py-10 text-center"
      >
        <FolderOpen className="size-7 text-subtle" aria-hidden />
        <p className="text-sm font-medium text-fg">
          {type
            ? t('editorSessions.list.emptyFiltered', { tool: t(`editorSessions.types.${type}`) })
            : t('editorSessions.list.empty')}
        </p>
        <p className="max-w-xs text-xs text-muted">{t('editorSessions.list.emptyHint')}</p>
      </div>
    );
  } else {
    body = (
      <ul
        className={cn('space-y-2 transition-opacity', query.isPlaceholderData && 'opacity-60')}
        data-testid="sessions-list"
        aria-busy={query.isFetching || undefined}
      >
        {rows.map((session) => (
          <SessionRow key={session.id} session={session} onLoad={onLoad} onChanged={refresh} />
        ))}
      </ul>
    );
  }

  return (
    <DialogShell
      open={open}
      onOpenChange={onOpenChange}
      title={t('editorSessions.list.title')}
      description={t('editorSessions.list.description')}
      testId="sessions-dialog"
      className="max-w-2xl!"
    >
      <div className="space-y-4">
        <Segmented<Filter>
          label={t('editorSessions.list.filter')}
          value={filter}
          onChange={changeFilter}
          options={filterOptions}
          size="sm"
          testIdPrefix="sessions-filter"
        />
        {body}
        {(page > 0 || hasMore) && (
          <nav className="flex items-center justify-between gap-2" aria-label={t('editorSessions.list.title')}>
            <Button
              variant="secondary"
              size="sm"
              disabled={page === 0 || query.isFetching}
              onClick={() => setPage((p) => Math.max(0, p - 1))}
              data-testid="sessions-prev"
            >
              <ChevronLeft className="size-4 rtl:-scale-x-100" aria-hidden />
              {t('editorSessions.list.previous')}
            </Button>
            <span className="text-xs text-muted tabular-nums" data-testid="sessions-page">
              {t('editorSessions.list.page', { page: page + 1 })}
            </span>
            <Button
              variant="secondary"
              size="sm"
              disabled={!hasMore || query.isFetching}
              onClick={goNext}
              data-testid="sessions-next"
            >
              {t('editorSessions.list.next')}
              <ChevronRight className="size-4 rtl:-scale-x-100" aria-hidden />
            </Button>
          </nav>
        )}
      </div>
    </DialogShell>
  );
}
