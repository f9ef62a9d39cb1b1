import { useQueryClient } from '@tanstack/react-query';
import { Check, FolderPlus, Globe2, Lock, RefreshCw, Trash2 } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Persona } from '../../../common/api/personas.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { formatLicensePrice, PERSONA_LIMITS } from '../../../common/rules/personas.ts';
import { addToWorkspace, workspaceKey } from '../../api/workspace.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { useDir } from '../../ui/controls.tsx';
import { DialogShell } from '../../ui/DialogShell.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { deletePersona, personasKey, usePersona } from './api.ts';
import { creationOutcome, personaAvatar } from './form.ts';
import { ImageSection, ProductSection } from './ImageSection.tsx';
import { errorText, personaMessage } from './messages.ts';
import { PercentBar } from './PercentBar.tsx';
import { reachLabel } from './PersonaCard.tsx';
import { PersonaGallery, useRegenerate } from './PersonaGallery.tsx';
import { useImageInputs } from './uploads.ts';
import { VideoSection } from './VideoSection.tsx';

const SECTIONS = ['video', 'image', 'product'] as const;

function AddToWorkspace({ persona }: { persona: Persona }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ kind: 'added' | 'duplicate' | 'failed'; message: string } | null>(null);
  async function add() {
    setBusy(true);
    const outcome = await addToWorkspace({
      assetId: persona.id,
      assetType: 'persona',
      metadata: { name: persona.name },
    });
    setBusy(false);
    if (outcome.kind === 'added') {
      setNotice({ kind: 'added', message: MESSAGES.personas.workspaceAdded });
      void queryClient.invalidateQueries({ queryKey: workspaceKey });
      void queryClient.invalidateQueries({ queryKey: personasKey });
    } else setNotice({ kind: outcome.kind, message: outcome.message });
  }
  return (
    <div className="space-y-1.5">
      <Button
        variant={notice?.kind === 'added' || notice?.kind === 'duplicate' ? 'secondary' : 'primary'}
        size="sm"
        loading={busy}
        onClick={() => void add()}
        disabled={persona.status !== 'ready'}
        data-testid="persona-add-workspace"
      >
        {!busy &&
          (notice?.kind === 'added' ? (
            <Check className="size-4" aria-hidden />
          ) : (
            <FolderPlus className="size-4" aria-hidden />
          ))}
        {t('personas.detail.addToWorkspace')}
      </Button>
      {notice && (
        <p
          role={notice.kind === 'failed' ? 'alert' : 'status'}
          data-testid="persona-workspace-notice"
          data-kind={notice.kind}
          className={cn(
            'text-xs',
            notice.kind === 'failed' ? 'text-danger' : notice.kind === 'added' ? 'text-success' : 'text-muted',
          )}
        >
          {personaMessage(notice.message)}
        </p>
      )}
    </div>
  );
}

function Header({ persona }: { persona: Persona }) {
  const { t } = useTranslation();
  const avatar = personaAvatar(persona);
  const facts = [
    t(`personas.personalities.${persona.personality}`, { defaultValue: persona.personality }),
    persona.nationality,
    persona.language,
  ].filter(Boolean);
  return (
    <div className="flex items-start gap-3">
      <span className="size-16 shrink-0 overflow-hidden rounded-xl border border-line bg-surface-3">
        {avatar && <img src={avatar} alt="" className="size-full object-cover" />}
      </span>
      <div className="min-w-0 flex-1 space-y-1">
        <p dir="auto" className="text-start text-sm leading-relaxed text-fg/90">
          {persona.description}
        </p>
        <p className="text-xs text-muted">{facts.join(' · ')}</p>
        <div className="flex flex-wrap items-center gap-1.5 text-xs">
          <span className="inline-flex items-center gap-1 rounded-full bg-surface-3 px-2 py-0.5 text-muted">
            {persona.isPublic ? <Globe2 className="size-3" aria-hidden /> : <Lock className="size-3" aria-hidden />}
            {persona.isPublic ? t('personas.detail.public') : t('personas.detail.private')}
          </span>
          <span className="rounded-full bg-surface-3 px-2 py-0.5 text-muted">
            {t(`personas.licenses.${persona.license_type}`)}
            {persona.license_type !== 'free' && ` · ${formatLicensePrice(persona.license_price)}`}
          </span>
          <span className="rounded-full bg-surface-3 px-2 py-0.5 text-muted">
            {t('personas.card.campaigns', { count: persona.usage_count })}
          </span>
          <span className="rounded-full bg-surface-3 px-2 py-0.5 text-muted" data-testid="persona-detail-reach">
            {reachLabel(t, persona)}
          </span>
          {persona.tags.map((tag) => (
            <span key={tag} className="rounded-full border border-accent/30 bg-accent-soft px-2 py-0.5 text-fg">
              {tag}
            </span>
          ))}
        </div>
      </div>
    </div>
  );
}

function DetailBody({ persona, onDeleted }: { persona: Persona; onDeleted: () => void }) {
  const { t } = useTranslation();
  const dir = useDir();
  const queryClient = useQueryClient();
  const products = useImageInputs(PERSONA_LIMITS.maxProductImages);
  const [productPrompt, setProductPrompt] = useState('');
  const [section, setSection] = useState<(typeof SECTIONS)[number]>('video');
  const { regenerate, starting } = useRegenerate(persona);
  const [deleting, setDeleting] = useState(false);
  const outcome = creationOutcome(persona);

  async function remove() {
    if (!window.confirm(t('personas.detail.deleteConfirm', { name: persona.name }))) return;
    setDeleting(true);
    try {
      await deletePersona(persona.id);
      void queryClient.invalidateQueries({ queryKey: personasKey });
      void queryClient.invalidateQueries({ queryKey: workspaceKey });
      toast.success(personaMessage(MESSAGES.personas.deleted));
      onDeleted();
    } catch (error) {
      toast.error(personaMessage(errorText(error, MESSAGES.generic.internal)));
      setDeleting(false);
    }
  }

  return (
    <div className="space-y-5" data-testid="persona-detail" data-status={persona.status}>
      <Header persona={persona} />
      <div className="flex flex-wrap items-start gap-2">
        <AddToWorkspace persona={persona} />
        {persona.isOwner && (
          <>
            <Button
              variant="secondary"
              size="sm"
              loading={starting === 'all'}
              disabled={persona.status === 'generating'}
              onClick={() => void regenerate()}
              data-testid="persona-regenerate-all"
            >
              {starting !== 'all' && <RefreshCw className="size-4" aria-hidden />}
              {t('personas.detail.regenerateAll')}
            </Button>
            <Button
              variant="ghost"
              size="sm"
              loading={deleting}
              onClick={() => void remove()}
              className="ms-auto text-danger hover:text-danger"
              data-testid="persona-delete"
            >
              {!deleting && <Trash2 className="size-4" aria-hidden />}
              {t('personas.detail.delete')}
            </Button>
          </>
        )}
      </div>
      <section aria-labelledby="persona-gallery-title" className="space-y-2">
        <h3 id="persona-gallery-title" className="text-xs font-semibold uppercase tracking-wide text-muted">
          {t('personas.detail.gallery')}
        </h3>
        {outcome.kind === 'generating' && (
          <PercentBar value={outcome.progress} label={t('personas.progress.generating')} testId="persona-progress" />
        )}
        {(outcome.kind === 'failed' || outcome.kind === 'partial') && (
          <p role="status" className="rounded-lg bg-warning-soft px-3 py-2 text-xs text-fg">
            {outcome.kind === 'failed' && <span className="font-medium">{personaMessage(outcome.message)} </span>}
            {personaMessage(MESSAGES.personas.imagesSaveFailed)}
          </p>
        )}
        <PersonaGallery persona={persona} />
      </section>
      <Tabs.Root dir={dir} value={section} onValueChange={(value) => setSection(value as typeof section)}>
        <Tabs.List aria-label={t('personas.detail.create')} className="flex gap-1 overflow-x-auto border-b border-line">
          {SECTIONS.map((value) => (
            <Tabs.Trigger
              key={value}
              value={value}
              data-testid={`persona-section-${value}`}
              className={cn(
                '-mb-px inline-flex h-10 shrink-0 items-center border-b-2 border-transparent px-3 text-sm font-medium text-muted',
                'hover:text-fg data-[state=active]:border-accent data-[state=active]:text-fg',
                'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent',
              )}
            >
              {t(`personas.detail.sections.${value}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {/* Kept mounted so a running video keeps its progress while another section is open. */}
        <Tabs.Content value="video" forceMount className="pt-4 data-[state=inactive]:hidden">
          <VideoSection persona={persona} products={products} productPrompt={productPrompt} />
        </Tabs.Content>
        <Tabs.Content value="image" forceMount className="pt-4 data-[state=inactive]:hidden">
          <ImageSection persona={persona} />
        </Tabs.Content>
        <Tabs.Content value="product" forceMount className="pt-4 data-[state=inactive]:hidden">
          <ProductSection
            persona={persona}
            products={products}
            productPrompt={productPrompt}
            onProductPrompt={setProductPrompt}
          />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}

/** The persona details/generate dialog (spec 2.1, 2.4). */
export function PersonaDetailDialog({ personaId, onClose }: { personaId: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { data: persona, error, isPending } = usePersona(personaId);
  return (
    <DialogShell
      open={personaId !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={persona?.name ?? t('personas.detail.title')}
      testId="persona-detail-dialog"
      className="sm:max-w-3xl"
    >
      {persona ? (
        <DetailBody key={persona.id} persona={persona} onDeleted={onClose} />
      ) : error ? (
        <p role="alert" className="py-8 text-center text-sm text-danger">
          {personaMessage(error.message)}
        </p>
      ) : isPending ? (
        <div className="flex justify-center py-12">
          <Spinner className="size-6" />
        </div>
      ) : null}
    </DialogShell>
  );
}
