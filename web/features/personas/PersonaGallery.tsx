import { useQueryClient } from '@tanstack/react-query';
import { ImageOff, Loader2, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Persona } from '../../../common/api/personas.ts';
import { MESSAGES } from '../../../common/messages.ts';
import type { PersonaImageType } from '../../../common/rules/personas.ts';
import { disabledButtonClass } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { personaKey, personasKey, regeneratePersona } from './api.ts';
import { galleryImages } from './form.ts';
import { errorText, personaMessage } from './messages.ts';

/** Starts regenerating one image (or all); the persona goes back to generating and follows its new task. */
export function useRegenerate(persona: Persona) {
  const queryClient = useQueryClient();
  const [starting, setStarting] = useState<PersonaImageType | 'all' | null>(null);
  async function regenerate(type?: PersonaImageType) {
    setStarting(type ?? 'all');
    try {
      const reply = await regeneratePersona(persona.id, type);
      queryClient.setQueryData(personaKey(persona.id), reply.data);
      void queryClient.invalidateQueries({ queryKey: [...personasKey, 'list'] });
    } catch (error) {
      toast.error(personaMessage(errorText(error, MESSAGES.generation.imageFailed)));
    } finally {
      setStarting(null);
    }
  }
  return { regenerate, starting };
}

function Tile({
  persona,
  image,
  busy,
  onRegenerate,
  canRegenerate,
}: {
  persona: Persona;
  image: ReturnType<typeof galleryImages>[number];
  busy: boolean;
  onRegenerate: () => void;
  canRegenerate: boolean;
}) {
  const { t } = useTranslation();
  const [broken, setBroken] = useState(false);
  const label = t(`personas.imageTypes.${image.type}`);
  const pending = image.status === 'pending' && persona.status === 'generating';
  const shown = image.status === 'ready' && (image.thumbnail_url ?? image.url);
  const regenerateButton = (placeholder: boolean) => (
    <button
      type="button"
      onClick={onRegenerate}
      disabled={busy}
      aria-label={t('personas.gallery.regenerateNamed', { type: label })}
      title={t('personas.gallery.regenerate')}
      data-testid="persona-image-regenerate"
      className={cn(
        'inline-flex items-center justify-center gap-1 rounded-md font-medium transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent',
        placeholder
          ? cn('h-7 bg-accent px-2 text-xs text-accent-fg hover:bg-accent-strong', disabledButtonClass)
          : 'absolute end-1.5 top-1.5 size-7 bg-black/60 text-white hover:bg-black/80 disabled:cursor-not-allowed disabled:opacity-40',
      )}
    >
      <RefreshCw className="size-3.5" aria-hidden />
      {placeholder && <span>{t('personas.gallery.regenerate')}</span>}
    </button>
  );
  const mayRegenerate = canRegenerate && persona.status !== 'generating';
  return (
    <li
      data-testid="persona-image"
      data-type={image.type}
      data-status={image.status}
      className="overflow-hidden rounded-xl border border-line bg-surface-2"
    >
      <div className="relative aspect-[3/4]">
        {shown && !broken ? (
          <>
            <img
              src={shown}
              alt={t('personas.gallery.alt', { name: persona.name, type: label })}
              loading="lazy"
              onError={() => setBroken(true)}
              className="size-full object-cover"
            />
            {mayRegenerate && regenerateButton(false)}
          </>
        ) : (
          <div
            className={cn(
              'flex size-full flex-col items-center justify-center gap-1.5 p-2 text-center',
              pending ? 'animate-pulse bg-surface-3 text-muted' : 'text-subtle',
            )}
            data-testid={pending ? undefined : 'persona-image-placeholder'}
          >
            {pending ? (
              <Loader2 className="size-5 animate-spin text-accent" aria-hidden />
            ) : (
              <ImageOff className="size-5" aria-hidden />
            )}
            <span className="text-xs leading-tight">
              {pending
                ? t('personas.gallery.pending')
                : broken
                  ? t('personas.gallery.loadFailed')
                  : t('personas.gallery.placeholder')}
            </span>
            {!pending && mayRegenerate && regenerateButton(true)}
          </div>
        )}
        {busy && (
          <span className="absolute inset-0 grid place-items-center bg-black/50">
            <Loader2 className="size-5 animate-spin text-white" aria-hidden />
          </span>
        )}
      </div>
      <p className="truncate border-t border-line px-2 py-1.5 text-center text-xs font-medium text-muted">{label}</p>
    </li>
  );
}

/** The five persona images; failed ones are placeholders with a Regenerate button (owners only). */
export function PersonaGallery({ persona, className }: { persona: Persona; className?: string }) {
  const { regenerate, starting } = useRegenerate(persona);
  return (
    <ul className={cn('grid grid-cols-3 gap-2 sm:grid-cols-5', className)} data-testid="persona-gallery">
      {galleryImages(persona).map((image) => (
        <Tile
          key={image.type}
          persona={persona}
          image={image}
          busy={starting === image.type || starting === 'all'}
          canRegenerate={persona.isOwner}
          onRegenerate={() => void regenerate(image.type)}
        />
      ))}
    </ul>
  );
}
