import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, CircleAlert, Info } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { Persona } from '../../../common/api/personas.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { Button } from '../../ui/Button.tsx';
import { personaKey, personasKey, usePersona } from './api.ts';
import { creationOutcome } from './form.ts';
import { personaMessage } from './messages.ts';
import { PercentBar } from './PercentBar.tsx';
import { PersonaGallery } from './PersonaGallery.tsx';

/**
 * A new persona's image generation: the generation_progress bar and each image as it arrives, followed until
 * the persona is ready; failures with the spec's messages and placeholders to regenerate.
 */
export function CreationProgress({ initial, onOpen }: { initial: Persona; onOpen: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // The reply of the create call is the first state; its generation task says when to read it again.
  useEffect(() => {
    if (!queryClient.getQueryData(personaKey(initial.id))) queryClient.setQueryData(personaKey(initial.id), initial);
  }, [queryClient, initial]);
  const { data, error } = usePersona(initial.id);
  const persona = data ?? initial;
  const outcome = creationOutcome(persona);

  // Once it is no longer generating the directory should show it.
  useEffect(() => {
    if (outcome.kind !== 'generating') void queryClient.invalidateQueries({ queryKey: [...personasKey, 'list'] });
  }, [outcome.kind, queryClient]);

  return (
    <div className="space-y-4" data-testid="persona-creation" data-status={persona.status}>
      {outcome.kind === 'generating' ? (
        <PercentBar value={outcome.progress} label={t('personas.progress.generating')} testId="persona-progress" />
      ) : outcome.kind === 'ready' ? (
        <p
          role="status"
          className="flex items-center gap-2 rounded-xl border border-success/30 bg-success-soft px-3.5 py-2.5 text-sm text-success"
          data-testid="persona-ready"
        >
          <CheckCircle2 className="size-4 shrink-0" aria-hidden />
          {t('personas.progress.ready')}
        </p>
      ) : (
        <div
          role="alert"
          data-testid="persona-creation-failed"
          className="space-y-1 rounded-xl border border-warning/35 bg-warning-soft px-3.5 py-2.5 text-sm"
        >
          {outcome.kind === 'failed' && (
            <p className="flex items-center gap-2 font-medium text-danger">
              <CircleAlert className="size-4 shrink-0" aria-hidden />
              {personaMessage(outcome.message)}
            </p>
          )}
          <p className="flex items-start gap-2 text-fg">
            <Info className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
            {personaMessage(MESSAGES.personas.imagesSaveFailed)}
          </p>
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm text-danger">
          {personaMessage(error.message)}
        </p>
      )}
      <div>
        <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted">
          {t('personas.progress.images')}
        </h3>
        <PersonaGallery persona={persona} />
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button
          onClick={onOpen}
          disabled={outcome.kind === 'generating'}
          data-testid="persona-open-created"
          variant={outcome.kind === 'generating' ? 'secondary' : 'primary'}
        >
          {t('personas.progress.open')}
        </Button>
      </div>
    </div>
  );
}
