import { CircleAlert, Plus, ScanFace } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Persona } from '../../../common/api/personas.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { PersonaStatus } from '../../../common/rules/personas.ts';
import { Button } from '../../ui/Button.tsx';
import { LoadingState, SearchBox, Toolbar, useDebounced } from '../../ui/directory-parts.tsx';
import { usePersonas } from './api.ts';
import { BuildPersonaDialog } from './BuildPersonaDialog.tsx';
import { personaMessage } from './messages.ts';
import { PersonaCard } from './PersonaCard.tsx';
import { PersonaDetailDialog } from './PersonaDetailDialog.tsx';

function PersonaGrid({
  personas,
  onOpen,
  testId,
}: {
  personas: Persona[];
  onOpen: (id: string) => void;
  testId: string;
}) {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" data-testid={testId}>
      {personas.map((persona) => (
        <PersonaCard key={persona.id} persona={persona} onOpen={() => onOpen(persona.id)} />
      ))}
    </ul>
  );
}

/**
 * The personas list with search, the Build Your Persona dialog and the persona detail dialog. The dashboard's
 * aiPersonas view shows only ready personas (spec 2.4); the studio's Personas tab shows them too, with the user's
 * personas still being generated (or failed) in an 'In progress' place of their own.
 */
function PersonasList({ status, testId }: { status?: PersonaStatus; testId: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const search = useDebounced(text.trim());
  const { data, error, isPending, isFetching, refetch } = usePersonas(search, status);
  const [building, setBuilding] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);
  const list = data?.personas ?? [];
  // Ready personas are the list (spec: the directory lists ready ones); the user's own still being made or
  // failed wait in their own place above it.
  const ready = list.filter((persona) => persona.status === 'ready');
  const inProgress = list.filter((persona) => persona.status !== 'ready');

  return (
    <section className="space-y-4" data-testid={testId}>
      <Toolbar>
        <SearchBox
          value={text}
          onChange={setText}
          label={t('personas.list.search')}
          placeholder={t('personas.list.searchPlaceholder')}
          clearLabel={t('personas.list.clearSearch')}
          busy={isFetching && !isPending}
          testId="persona-search"
        />
        <Button onClick={() => setBuilding(true)} data-testid="persona-create">
          <Plus className="size-4" aria-hidden />
          {t('personas.list.create')}
        </Button>
      </Toolbar>

      {isPending ? (
        <LoadingState testId="personas-loading" />
      ) : error && list.length === 0 ? (
        <div
          role="alert"
          className="flex flex-col items-center rounded-2xl border border-danger/30 bg-danger-soft px-6 py-10 text-center"
        >
          <CircleAlert className="mb-2 size-7 text-danger" aria-hidden />
          <p className="text-sm font-medium text-fg">{personaMessage(error.message)}</p>
          <Button className="mt-4" variant="secondary" onClick={() => void refetch()}>
            {t('common.retry')}
          </Button>
        </div>
      ) : list.length === 0 ? (
        <div
          data-testid="personas-empty"
          className="flex flex-col items-center rounded-2xl border border-dashed border-line-strong bg-surface px-6 py-12 text-center"
        >
          <span className="mb-3 grid size-12 place-items-center rounded-2xl bg-accent-soft text-accent">
            <ScanFace className="size-6" aria-hidden />
          </span>
          <p className="text-sm font-medium text-fg">
            {search ? t('personas.list.noMatch', { search }) : personaMessage(MESSAGES.personas.emptyDirectory)}
          </p>
          {!search && (
            <Button className="mt-4" onClick={() => setBuilding(true)}>
              <Plus className="size-4" aria-hidden />
              {t('personas.list.create')}
            </Button>
          )}
        </div>
      ) : (
        <>
          {inProgress.length > 0 && (
            <section aria-labelledby="personas-in-progress" data-testid="personas-in-progress" className="space-y-2">
              <h3 id="personas-in-progress" className="text-sm font-semibold text-fg">
                {t('personas.list.inProgress')}
              </h3>
              <PersonaGrid personas={inProgress} onOpen={setOpenId} testId="persona-progress-list" />
            </section>
          )}
          {ready.length > 0 && <PersonaGrid personas={ready} onOpen={setOpenId} testId="persona-list" />}
        </>
      )}

      <BuildPersonaDialog
        open={building}
        onOpenChange={setBuilding}
        mayPublish={data?.canCreatePublic ?? false}
        onOpenPersona={setOpenId}
      />
      <PersonaDetailDialog personaId={openId} onClose={() => setOpenId(null)} />
    </section>
  );
}

/** Dashboard view aiPersonas: the directory of ready personas. */
export default function PersonasView() {
  return (
    <div className="mt-6">
      <PersonasList status="ready" testId="persona-directory" />
    </div>
  );
}

/** The Creation Studio's Personas tab ('Create Persona'). */
export function PersonasTab() {
  return <PersonasList testId="studio-personas" />;
}
