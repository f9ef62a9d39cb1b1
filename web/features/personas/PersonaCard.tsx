import type { TFunction } from 'i18next';
import { Loader2, Megaphone, ScanFace, TrendingUp, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Persona } from '../../../common/api/personas.ts';
import { abbreviateCount } from '../../../common/rules/personas.ts';
import { personaAvatar } from './form.ts';

/** A persona in the directory: avatar (face_only or portrait), name, tags, campaigns used and reach. */
export function PersonaCard({ persona, onOpen }: { persona: Persona; onOpen: () => void }) {
  const { t } = useTranslation();
  const avatar = personaAvatar(persona);
  const [broken, setBroken] = useState(false);
  const tags = persona.tags.slice(0, 3);
  return (
    <li data-testid="persona-card" data-status={persona.status} data-name={persona.name}>
      <button
        type="button"
        onClick={onOpen}
        className="group flex h-full w-full flex-col overflow-hidden rounded-2xl border border-line bg-surface text-start transition-colors hover:border-line-strong focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
      >
        <div className="relative aspect-square w-full overflow-hidden bg-surface-2">
          {avatar && !broken ? (
            <img
              src={avatar}
              alt=""
              loading="lazy"
              onError={() => setBroken(true)}
              className="size-full object-cover transition-transform duration-300 group-hover:scale-[1.03]"
            />
          ) : (
            <span className="grid size-full place-items-center text-subtle">
              <ScanFace className="size-10" aria-hidden />
            </span>
          )}
          {persona.status === 'generating' && (
            <span className="absolute start-2 top-2 inline-flex items-center gap-1 rounded-full bg-black/70 px-2 py-0.5 text-xs font-medium text-white">
              <Loader2 className="size-3 animate-spin" aria-hidden />
              {t('personas.progress.percent', { value: persona.generation_progress })}
            </span>
          )}
          {persona.status === 'failed' && (
            <span className="absolute start-2 top-2 inline-flex items-center gap-1 rounded-full bg-danger px-2 py-0.5 text-xs font-medium text-danger-fg">
              <TriangleAlert className="size-3" aria-hidden />
              {t('personas.card.failed')}
            </span>
          )}
        </div>
        <div className="flex flex-1 flex-col gap-2 p-3">
          <p dir="auto" className="truncate text-start text-sm font-semibold text-fg">
            {persona.name}
          </p>
          {tags.length > 0 && (
            <div className="flex flex-wrap gap-1">
              {tags.map((tag) => (
                <span
                  key={tag}
                  className="max-w-full truncate rounded-full bg-accent-soft px-2 py-0.5 text-xs text-fg/90"
                >
                  {tag}
                </span>
              ))}
              {persona.tags.length > tags.length && (
                <span className="rounded-full bg-surface-3 px-2 py-0.5 text-xs text-muted">
                  +{persona.tags.length - tags.length}
                </span>
              )}
            </div>
          )}
          <div className="mt-auto flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted">
            <span className="inline-flex items-center gap-1" data-testid="persona-card-campaigns">
              <Megaphone className="size-3.5" aria-hidden />
              {t('personas.card.campaigns', { count: persona.usage_count })}
            </span>
            <span className="inline-flex items-center gap-1" data-testid="persona-card-reach">
              <TrendingUp className="size-3.5" aria-hidden />
              {reachLabel(t, persona)}
            </span>
          </div>
        </div>
      </button>
    </li>
  );
}

/** "12K reach · 340 engagement", or that no published post carries the persona yet. */
export function reachLabel(t: TFunction, persona: Pick<Persona, 'totalReach' | 'total_engagement'>): string {
  if (persona.totalReach === null && persona.total_engagement === null) return t('personas.card.noReach');
  const parts: string[] = [];
  if (persona.totalReach !== null) parts.push(t('personas.card.reach', { value: abbreviateCount(persona.totalReach) }));
  if (persona.total_engagement !== null) {
    parts.push(t('personas.card.engagement', { value: abbreviateCount(persona.total_engagement) }));
  }
  return parts.join(' · ');
}
