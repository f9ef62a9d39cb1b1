// Step 2, Characters (canvas spec 3 "Film character"): add, edit and remove the cast, each with a role,
// demographics, inner life, relationships to the others, voice and backstory. Generate Screenplay sits below.
import { ChevronDown, Link2, Pencil, Plus, Trash2, UserRound, Users } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FILM_AGE_GROUPS, FILM_ROLES } from '../../../common/rules/film.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { labelClass, SelectField, TextInputField } from '../../ui/controls.tsx';
import { inputClass } from '../../ui/Field.tsx';
import type { FilmAgeGroup, FilmCharacter, FilmRole } from './model.ts';
import { GenerateScreenplay, Section } from './parts.tsx';
import { useFilm } from './store.ts';

const TEXT_FIELDS = ['personality', 'motivation', 'goal', 'conflict', 'arc', 'backstory'] as const;

function Relationships({ character }: { character: FilmCharacter }) {
  const { t } = useTranslation();
  const all = useFilm((s) => s.characters);
  const others = all.filter((c) => c.id !== character.id);
  const patchCharacter = useFilm((s) => s.patchCharacter);
  const set = (relationships: FilmCharacter['relationships']) => patchCharacter(character.id, { relationships });
  const name = (c: FilmCharacter) => c.name.trim() || t('film.characters.unnamed');
  return (
    <fieldset className="space-y-2.5">
      <legend className="text-xs font-medium text-muted">{t('film.characters.relationships')}</legend>
      {character.relationships.length === 0 && (
        <p className="text-xs text-subtle">
          {others.length === 0 ? t('film.characters.relationshipsNeedOthers') : t('film.characters.noRelationships')}
        </p>
      )}
      {character.relationships.map((relation, index) => (
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id of their own and are edited in place
          key={index}
          className="grid gap-2 rounded-lg border border-line bg-surface-2/50 p-2.5 sm:grid-cols-[1fr_1.4fr_auto] sm:items-end"
        >
          <SelectField
            label={t('film.characters.relatedTo')}
            value={relation.characterId}
            onChange={(characterId) =>
              set(character.relationships.map((r, i) => (i === index ? { ...r, characterId } : r)))
            }
            options={[
              { value: '', label: t('film.characters.choose') },
              ...others.map((c) => ({ value: c.id, label: name(c) })),
            ]}
          />
          <TextInputField
            label={t('film.characters.relationship')}
            value={relation.relationship}
            maxLength={200}
            placeholder={t('film.characters.relationshipPlaceholder')}
            onChange={(relationship) =>
              set(character.relationships.map((r, i) => (i === index ? { ...r, relationship } : r)))
            }
          />
          <Button
            variant="ghost"
            size="sm"
            className="h-10"
            aria-label={t('film.characters.removeRelationship')}
            onClick={() => set(character.relationships.filter((_, i) => i !== index))}
          >
            <Trash2 className="size-4" aria-hidden />
          </Button>
        </div>
      ))}
      <Button
        variant="secondary"
        size="sm"
        disabled={others.length === 0}
        onClick={() => set([...character.relationships, { characterId: others[0]?.id ?? '', relationship: '' }])}
      >
        <Link2 className="size-4" aria-hidden />
        {t('film.characters.addRelationship')}
      </Button>
    </fieldset>
  );
}

function CharacterEditor({ character }: { character: FilmCharacter }) {
  const { t } = useTranslation();
  const patchCharacter = useFilm((s) => s.patchCharacter);
  const nameId = useId();
  const patch = (change: Partial<FilmCharacter>) => patchCharacter(character.id, change);
  const patchDemo = (change: Partial<FilmCharacter['demographics']>) =>
    patch({ demographics: { ...character.demographics, ...change } });
  return (
    <div className="space-y-4 border-t border-line p-4" data-testid="film-character-editor">
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="min-w-0 space-y-1.5">
          <label htmlFor={nameId} className={labelClass}>
            {t('film.characters.name')}
          </label>
          <input
            id={nameId}
            value={character.name}
            maxLength={100}
            required
            // A new character's editor opens on its name.
            // biome-ignore lint/a11y/noAutofocus: the user has just pressed Add character
            autoFocus={!character.name}
            data-testid="film-character-name"
            className={cn(inputClass, 'h-10')}
            onChange={(event) => patch({ name: event.target.value })}
          />
        </div>
        <SelectField
          label={t('film.characters.role')}
          value={character.role}
          testId="film-character-role"
          onChange={(role) => patch({ role: role as FilmRole })}
          options={FILM_ROLES.map((value) => ({ value, label: t(`film.options.role.${value}`) }))}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-4">
        <SelectField
          label={t('film.characters.age')}
          value={character.demographics.age}
          onChange={(age) => patchDemo({ age: age as FilmAgeGroup | '' })}
          options={[
            { value: '', label: t('film.characters.notSet') },
            ...FILM_AGE_GROUPS.map((value) => ({ value, label: value })),
          ]}
        />
        <TextInputField
          label={t('film.characters.gender')}
          value={character.demographics.gender}
          maxLength={50}
          onChange={(gender) => patchDemo({ gender })}
        />
        <TextInputField
          label={t('film.characters.ethnicity')}
          value={character.demographics.ethnicity}
          maxLength={100}
          onChange={(ethnicity) => patchDemo({ ethnicity })}
        />
        <TextInputField
          label={t('film.characters.occupation')}
          value={character.demographics.occupation}
          maxLength={100}
          onChange={(occupation) => patchDemo({ occupation })}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        {TEXT_FIELDS.map((field) => (
          <TextInputField
            key={field}
            multiline
            label={t(`film.characters.${field}`)}
            value={character[field]}
            maxLength={field === 'backstory' ? 5000 : 2000}
            placeholder={t(`film.characters.${field}Placeholder`)}
            onChange={(value) => patch({ [field]: value })}
          />
        ))}
        <TextInputField
          label={t('film.characters.voiceStyle')}
          value={character.voiceStyle}
          maxLength={200}
          placeholder={t('film.characters.voiceStylePlaceholder')}
          onChange={(voiceStyle) => patch({ voiceStyle })}
        />
      </div>
      <Relationships character={character} />
    </div>
  );
}

export function CharactersStep() {
  const { t } = useTranslation();
  const characters = useFilm((s) => s.characters);
  const addCharacter = useFilm((s) => s.addCharacter);
  const removeCharacter = useFilm((s) => s.removeCharacter);
  const [open, setOpen] = useState<string | null>(null);

  const add = () => setOpen(addCharacter());

  return (
    <div className="space-y-5">
      <Section
        title={t('film.characters.heading')}
        description={t('film.characters.intro')}
        actions={
          <Button onClick={add} data-testid="film-add-character">
            <Plus className="size-4" aria-hidden />
            {t('film.characters.add')}
          </Button>
        }
      >
        {characters.length === 0 ? (
          <div
            data-testid="film-characters-empty"
            className="flex flex-col items-center rounded-xl border border-dashed border-line-strong px-6 py-10 text-center"
          >
            <Users className="mb-3 size-8 text-subtle" aria-hidden />
            <p className="text-sm font-medium">{t('film.characters.emptyTitle')}</p>
            <p className="mt-1 max-w-sm text-sm text-muted">{t('film.characters.emptyBody')}</p>
          </div>
        ) : (
          <ul className="space-y-3">
            {characters.map((character) => {
              const expanded = open === character.id;
              return (
                <li
                  key={character.id}
                  data-testid="film-character"
                  className={cn('rounded-xl border bg-surface-2/40', expanded ? 'border-accent/50' : 'border-line')}
                >
                  <div className="flex items-center gap-3 p-3">
                    <span className="grid size-9 shrink-0 place-items-center rounded-full bg-accent-soft text-accent">
                      <UserRound className="size-4" aria-hidden />
                    </span>
                    <div className="min-w-0 flex-1">
                      <p className="truncate text-sm font-semibold">
                        {character.name.trim() || t('film.characters.unnamed')}
                      </p>
                      <p className="truncate text-xs text-muted">
                        {[
                          t(`film.options.role.${character.role}`),
                          character.demographics.age,
                          character.demographics.occupation,
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      </p>
                    </div>
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-expanded={expanded}
                      data-testid="film-character-edit"
                      onClick={() => setOpen(expanded ? null : character.id)}
                    >
                      {expanded ? (
                        <ChevronDown className="size-4 rotate-180" aria-hidden />
                      ) : (
                        <Pencil className="size-4" aria-hidden />
                      )}
                      <span className="max-sm:sr-only">
                        {expanded ? t('film.characters.done') : t('film.characters.edit')}
                      </span>
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      data-testid="film-character-remove"
                      aria-label={t('film.characters.remove', { name: character.name || t('film.characters.unnamed') })}
                      onClick={() => removeCharacter(character.id)}
                    >
                      <Trash2 className="size-4" aria-hidden />
                    </Button>
                  </div>
                  {expanded && <CharacterEditor character={character} />}
                </li>
              );
            })}
          </ul>
        )}
      </Section>
      <Section title={t('film.screenplay.heading')} description={t('film.screenplay.generateIntro')}>
        <GenerateScreenplay />
      </Section>
    </div>
  );
}
