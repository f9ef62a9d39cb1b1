import { useQueryClient } from '@tanstack/react-query';
import { Download, ImageIcon, Package } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Persona } from '../../../common/api/personas.ts';
import { MESSAGES } from '../../../common/messages.ts';
import { PERSONA_LIMITS } from '../../../common/rules/personas.ts';
import { isAbort } from '../../api/abort.ts';
import { assetsQueryKey } from '../../api/assets.ts';
import { meQueryKey } from '../../api/auth.ts';
import { finishedOutput, type GeneratedOutput, generatedOutput } from '../../api/generation.ts';
import { Button } from '../../ui/Button.tsx';
import { cn } from '../../ui/cn.ts';
import { EngineBadge } from '../../ui/EngineBadge.tsx';
import { FormMessage, inputClass } from '../../ui/Field.tsx';
import { generatePersonaImage } from './api.ts';
import { ImageDropZone } from './ImageDropZone.tsx';
import { errorText, personaMessage } from './messages.ts';
import type { ImageInputs } from './uploads.ts';

/** The image of a started image task, followed until it is done (3 minutes at most). */
const imageResult = (taskId: string, signal: AbortSignal) =>
  generatedOutput(taskId, { signal, timeoutMs: 3 * 60_000, failedMessage: MESSAGES.generation.imageFailed });

function useImageRun(persona: Persona) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [output, setOutput] = useState<GeneratedOutput | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  async function run(prompt: string, productImages: string[]) {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setBusy(true);
    setError(null);
    setOutput(null);
    try {
      const reply = await generatePersonaImage(persona.id, {
        prompt,
        productImages: productImages.length > 0 ? productImages : undefined,
      });
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
      setOutput(
        (reply.data.status === 'completed' ? finishedOutput(reply.data) : null) ??
          (await imageResult(reply.data.taskId, abort.signal)),
      );
      void queryClient.invalidateQueries({ queryKey: assetsQueryKey });
    } catch (e) {
      if (isAbort(e)) return;
      setError(errorText(e, MESSAGES.generation.imageFailed));
    } finally {
      if (controller.current === abort) setBusy(false);
    }
  }
  return { busy, error, output, run, setError };
}

function Result({ output: { url, engine }, alt }: { output: GeneratedOutput; alt: string }) {
  const { t } = useTranslation();
  return (
    <figure className="space-y-2" data-testid="persona-image-result">
      <img src={url} alt={alt} className="max-h-80 w-full rounded-xl border border-line bg-surface-2 object-contain" />
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <a
          href={url}
          download
          className="inline-flex items-center gap-1.5 text-sm font-medium text-accent hover:underline"
        >
          <Download className="size-4" aria-hidden />
          {t('personas.image.download')}
        </a>
        <EngineBadge engine={engine} className="text-muted" />
      </div>
    </figure>
  );
}

/** A prompt box with its character counter. */
export function PromptArea({
  label,
  value,
  onChange,
  max,
  placeholder,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  max?: number;
  placeholder?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="space-y-1.5">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-fg">
          {label}
        </label>
        {max !== undefined && (
          <span
            className={cn('text-xs tabular-nums', value.length >= max ? 'text-warning' : 'text-subtle')}
            data-testid={`${testId}-count`}
            aria-live="polite"
          >
            {t('personas.counter', { count: value.length, max })}
          </span>
        )}
      </div>
      <textarea
        id={id}
        value={value}
        maxLength={max}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        rows={3}
        data-testid={testId}
        className={cn(inputClass, 'min-h-20 resize-y py-2.5 leading-relaxed')}
      />
    </div>
  );
}

/** A new image of the persona from a prompt ('Please select a persona and enter an image prompt'). */
export function ImageSection({ persona }: { persona: Persona }) {
  const { t } = useTranslation();
  const [prompt, setPrompt] = useState('');
  const { busy, error, output, run, setError } = useImageRun(persona);
  return (
    <div className="space-y-3" data-testid="persona-image-section">
      <PromptArea
        label={t('personas.image.prompt')}
        value={prompt}
        onChange={setPrompt}
        max={PERSONA_LIMITS.imagePromptMax}
        placeholder={t('personas.image.promptPlaceholder')}
        testId="persona-image-prompt"
      />
      {error && <FormMessage>{personaMessage(error)}</FormMessage>}
      <Button
        loading={busy}
        data-testid="persona-image-generate"
        onClick={() => {
          if (!prompt.trim()) setError(MESSAGES.personas.selectPersonaImage);
          else void run(prompt.trim(), []);
        }}
      >
        {!busy && <ImageIcon className="size-4" aria-hidden />}
        {busy ? t('personas.working') : t('personas.image.generate')}
      </Button>
      {output && <Result output={output} alt={prompt} />}
    </div>
  );
}

/**
 * Product integration: up to 2 product images and a prompt of at most 300 characters; generating the
 * persona with the product needs at least one product image. The same product images go into the video.
 */
export function ProductSection({
  persona,
  products,
  productPrompt,
  onProductPrompt,
}: {
  persona: Persona;
  products: ImageInputs;
  productPrompt: string;
  onProductPrompt: (value: string) => void;
}) {
  const { t } = useTranslation();
  const { busy, error, output, run, setError } = useImageRun(persona);
  return (
    <div className="space-y-3" data-testid="persona-product-section">
      <ImageDropZone
        inputs={products}
        max={PERSONA_LIMITS.maxProductImages}
        label={t('personas.product.images')}
        hint={t('personas.product.imagesHint', { max: PERSONA_LIMITS.maxProductImages })}
        testId="persona-product-images"
      />
      <PromptArea
        label={t('personas.product.prompt')}
        value={productPrompt}
        onChange={onProductPrompt}
        max={PERSONA_LIMITS.productPromptMax}
        placeholder={t('personas.product.promptPlaceholder')}
        testId="persona-product-prompt"
      />
      {error && <FormMessage>{personaMessage(error)}</FormMessage>}
      <div className="flex flex-wrap items-center gap-2">
        <Button
          loading={busy}
          disabled={products.uploading}
          data-testid="persona-product-generate"
          onClick={() => {
            if (products.urls.length === 0) setError(MESSAGES.personas.productImageRequired);
            else
              void run(
                productPrompt.trim() || t('personas.product.defaultPrompt', { name: persona.name }),
                products.urls,
              );
          }}
        >
          {!busy && <Package className="size-4" aria-hidden />}
          {busy ? t('personas.working') : output ? t('personas.product.regenerate') : t('personas.product.generate')}
        </Button>
        <p className="text-xs text-subtle">{t('personas.product.videoNote')}</p>
      </div>
      {output && <Result output={output} alt={productPrompt} />}
    </div>
  );
}
