import { useQueryClient } from '@tanstack/react-query';
import { Coins } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Persona } from '../../../common/api/personas.ts';
import { MESSAGES } from '../../../common/messages.ts';
import {
  LANGUAGES,
  LICENSE_TYPES,
  type LicenseType,
  NATIONALITIES,
  PERSONA_IMAGE,
  PERSONA_IMAGE_TYPES,
  PERSONA_LIMITS,
  PERSONALITY_OPTIONS,
  type Personality,
  personaImageSetPrice,
} from '../../../common/rules/personas.ts';
import { meQueryKey, useMe } from '../../api/auth.ts';
import { ApiError } from '../../api/client.ts';
import { useModelEngines } from '../../api/engines.ts';
import { useCreditsText } from '../../i18n/format.ts';
import { Button } from '../../ui/Button.tsx';
import { Segmented, SelectField, SwitchField, TextInputField } from '../../ui/controls.tsx';
import { DialogShell } from '../../ui/DialogShell.tsx';
import { DraftRestoredNote, useDraft } from '../../ui/drafts.tsx';
import { EngineNote } from '../../ui/EngineBadge.tsx';
import { FormMessage, TextAreaField, TextField } from '../../ui/Field.tsx';
import { CreditShortfall, creditShortfall } from '../billing/CreditShortfall.tsx';
import { createPersona, personasKey } from './api.ts';
import { CreationProgress } from './CreationProgress.tsx';
import { checkDraft, draftBody, EMPTY_DRAFT, isDraftEmpty, type PersonaDraft, parsePersonaDraft } from './form.ts';
import { ImageDropZone } from './ImageDropZone.tsx';
import { personaMessage } from './messages.ts';
import { TagsInput } from './TagsInput.tsx';
import { useImageInputs } from './uploads.ts';

/** 'Failed to create persona: {error}' with the server's error, or the network message. */
function createFailure(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.isNetwork) return MESSAGES.personas.createError;
    return MESSAGES.personas.createFailed(error.message || MESSAGES.personas.unknownError);
  }
  return MESSAGES.personas.createFailedRetry;
}

function PersonaForm({ mayPublish, onCreated }: { mayPublish: boolean; onCreated: (persona: Persona) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<PersonaDraft>(EMPTY_DRAFT);
  const [error, setError] = useState<string | null>(null);
  const [invalid, setInvalid] = useState<'required' | 'price' | null>(null);
  const [busy, setBusy] = useState(false);
  const images = useImageInputs(PERSONA_LIMITS.maxCharacterImages);
  const creditsText = useCreditsText();
  const balance = useMe().data?.credits ?? null;
  // A new persona's five images are generated on creation, and reserved up front (the serving engine's prices).
  const createPrice = personaImageSetPrice(
    PERSONA_IMAGE_TYPES.length,
    useModelEngines().model('image', PERSONA_IMAGE.model).prices,
  );
  const shortfall = creditShortfall(createPrice, balance);
  const kept = useDraft({
    screen: 'draft.persona',
    value: draft,
    isEmpty: isDraftEmpty,
    parse: parsePersonaDraft,
    restore: setDraft,
    reset: () => setDraft(EMPTY_DRAFT),
  });
  const set = <K extends keyof PersonaDraft>(key: K, value: PersonaDraft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (shortfall > 0) return;
    const check = checkDraft(draft);
    if (!check.ok) {
      setInvalid(check.field);
      setError(check.message);
      return;
    }
    setInvalid(null);
    setError(null);
    setBusy(true);
    try {
      const reply = await createPersona(draftBody(draft, images.urls, mayPublish));
      void queryClient.invalidateQueries({ queryKey: personasKey });
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
      kept.clear();
      onCreated(reply.data);
    } catch (e) {
      setError(createFailure(e));
    } finally {
      setBusy(false);
    }
  }

  const missing = (value: string) =>
    invalid === 'required' && !value.trim() ? t('personas.form.required') : undefined;

  return (
    <form onSubmit={submit} noValidate className="space-y-4" data-testid="persona-form">
      <DraftRestoredNote draft={kept} testId="persona-draft-restored" />
      <TextField
        label={t('personas.form.name')}
        value={draft.name}
        onChange={(e) => set('name', e.target.value)}
        maxLength={PERSONA_LIMITS.nameMax}
        error={missing(draft.name)}
        required
        data-testid="persona-name"
      />
      <TextAreaField
        label={t('personas.form.description')}
        value={draft.description}
        onChange={(e) => set('description', e.target.value)}
        maxLength={PERSONA_LIMITS.descriptionMax}
        placeholder={t('personas.form.descriptionPlaceholder')}
        error={missing(draft.description)}
        rows={3}
        className="min-h-20"
        required
        data-testid="persona-description"
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label={t('personas.form.personality')}
          value={draft.personality}
          onChange={(value) => set('personality', value as Personality)}
          options={PERSONALITY_OPTIONS.map((value) => ({ value, label: t(`personas.personalities.${value}`) }))}
          testId="persona-personality"
        />
        <TextInputField
          label={t('personas.form.targetAudience')}
          value={draft.targetAudience}
          onChange={(value) => set('targetAudience', value)}
          maxLength={PERSONA_LIMITS.targetAudienceMax}
          placeholder={t('personas.form.targetAudiencePlaceholder')}
        />
        <SelectField
          label={t('personas.form.nationality')}
          value={draft.nationality}
          onChange={(value) => set('nationality', value)}
          options={[
            { value: '', label: t('personas.form.nationalityNone') },
            ...NATIONALITIES.map((value) => ({ value, label: value })),
          ]}
          testId="persona-nationality"
        />
        <SelectField
          label={t('personas.form.language')}
          value={draft.language}
          onChange={(value) => set('language', value)}
          options={LANGUAGES.map((value) => ({ value, label: value }))}
          testId="persona-language"
        />
      </div>
      <ImageDropZone
        inputs={images}
        max={PERSONA_LIMITS.maxCharacterImages}
        label={t('personas.form.characterImages')}
        hint={t('personas.form.characterImagesHint', { max: PERSONA_LIMITS.maxCharacterImages })}
        testId="persona-images"
      />
      <TagsInput tags={draft.tags} onChange={(tags) => set('tags', tags)} />
      <div className="space-y-2">
        <span className="text-sm font-medium text-fg" id="persona-license-label">
          {t('personas.form.license')}
        </span>
        <Segmented<LicenseType>
          label={t('personas.form.license')}
          value={draft.licenseType}
          onChange={(value) => set('licenseType', value)}
          options={LICENSE_TYPES.map((value) => ({ value, label: t(`personas.licenses.${value}`) }))}
          testIdPrefix="persona-license"
          layout="fill"
        />
        {draft.licenseType !== 'free' && (
          <TextField
            label={t('personas.form.price')}
            value={draft.licensePrice}
            onChange={(e) => set('licensePrice', e.target.value)}
            inputMode="decimal"
            placeholder="0.00"
            error={invalid === 'price' ? personaMessage(MESSAGES.personas.licensePriceInvalid) : undefined}
            trailing={<span className="pe-2 text-sm text-muted">€</span>}
            data-testid="persona-price"
          />
        )}
      </div>
      {mayPublish && (
        <SwitchField
          label={t('personas.form.public')}
          description={t('personas.form.publicHint')}
          checked={draft.isPublic}
          onChange={(value) => set('isPublic', value)}
          testId="persona-public"
        />
      )}
      {error && <FormMessage>{personaMessage(error)}</FormMessage>}
      <div className="sticky -bottom-4 -mx-5 -mb-4 space-y-2.5 border-t border-line bg-surface px-5 py-3">
        {shortfall > 0 && <CreditShortfall shortfall={shortfall} balance={balance} testId="persona-shortfall" />}
        <EngineNote kind="image" model={PERSONA_IMAGE.model} className="justify-end" />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-end sm:gap-3">
          <span
            className="inline-flex items-center justify-center gap-1.5 text-sm text-muted"
            data-testid="persona-cost"
            data-credits={createPrice}
          >
            <Coins className="size-4 text-accent" aria-hidden />
            {t('personas.form.cost', { credits: creditsText(createPrice) })}
          </span>
          <Button
            type="submit"
            loading={busy}
            disabled={images.uploading || shortfall > 0}
            aria-describedby={shortfall > 0 ? 'persona-shortfall-message' : undefined}
            data-testid="persona-submit"
          >
            {busy ? t('personas.form.working') : t('personas.form.submit')}
          </Button>
        </div>
      </div>
    </form>
  );
}

/**
 * The Build Your Persona dialog (spec 2.4): the form, then the creation progress of the new persona until
 * it is ready.
 */
export function BuildPersonaDialog({
  open,
  onOpenChange,
  mayPublish,
  onOpenPersona,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  mayPublish: boolean;
  onOpenPersona: (id: string) => void;
}) {
  const { t } = useTranslation();
  const [created, setCreated] = useState<Persona | null>(null);
  return (
    <DialogShell
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) setCreated(null);
      }}
      title={created ? t('personas.progress.title', { name: created.name }) : t('personas.form.title')}
      description={created ? undefined : t('personas.form.subtitle')}
      testId="build-persona-dialog"
      className="sm:max-w-2xl"
    >
      {created ? (
        <CreationProgress
          initial={created}
          onOpen={() => {
            onOpenChange(false);
            setCreated(null);
            onOpenPersona(created.id);
          }}
        />
      ) : (
        <PersonaForm mayPublish={mayPublish} onCreated={setCreated} />
      )}
    </DialogShell>
  );
}
