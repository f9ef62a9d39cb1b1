// Prices in the help pages come from the live price list (issue 29 point 10): the pages write `{credits:videoPro}`
// and every answer, excerpt and page shown renders it from the price list the studio charges at that moment
// (PRICES for a vendor engine, the configured LOCAL_PREVIEW_PRICES for the local ones), naming the engine.
import type { EngineModelKind } from '../../../common/api/engines.ts';
import {
  AUDIO_MODEL,
  IMAGE_DEFAULTS,
  PRICE_ITEMS,
  type PriceItem,
  VIDEO_DEFAULTS,
} from '../../../common/api/generation.constants.ts';
import { VIDEO_ENHANCE } from '../../../common/api/uploads.constants.ts';
import { modelName, vendorName } from '../../../common/rules/engines.ts';
import { PERSONA_VIDEO } from '../../../common/rules/personas.ts';
import type { AppContext } from '../../context.ts';

/** The model whose engine charges each item, as the paid routes resolve it (the studio's default models). */
const CHARGED_BY: Record<PriceItem, { kind: EngineModelKind; model: string }> = {
  image: { kind: 'image', model: IMAGE_DEFAULTS.model },
  image4k: { kind: 'image', model: IMAGE_DEFAULTS.model },
  imageUpscale: { kind: 'image', model: IMAGE_DEFAULTS.model },
  imageEdit: { kind: 'image', model: IMAGE_DEFAULTS.model },
  composition: { kind: 'image', model: IMAGE_DEFAULTS.model },
  compositionStep: { kind: 'image', model: IMAGE_DEFAULTS.model },
  multiReference: { kind: 'image', model: IMAGE_DEFAULTS.model },
  inpaint: { kind: 'image', model: IMAGE_DEFAULTS.model },
  personaImage: { kind: 'image', model: IMAGE_DEFAULTS.model },
  promptEnhancement: { kind: 'image', model: IMAGE_DEFAULTS.model },
  videoPro: { kind: 'video', model: VIDEO_DEFAULTS.model },
  videoStandard: { kind: 'video', model: VIDEO_DEFAULTS.model },
  videoDream: { kind: 'video', model: 'seedance' },
  videoRunway: { kind: 'video', model: 'runway-gen4_turbo' },
  personaVideo: { kind: 'video', model: PERSONA_VIDEO.model },
  music: { kind: 'audio', model: AUDIO_MODEL },
  voice: { kind: 'audio', model: AUDIO_MODEL },
  videoEnhancement: { kind: 'upscale', model: VIDEO_ENHANCE.service },
};

const TOKEN = /\{credits:([A-Za-z0-9]+)\}/g;

const isPriceItem = (value: string): value is PriceItem => (PRICE_ITEMS as readonly string[]).includes(value);

/** The price items a text names with `{credits:item}` (unknown items are left out). */
export function priceTokensOf(text: string): PriceItem[] {
  return [...new Set([...text.matchAll(TOKEN)].map((match) => match[1] ?? ''))].filter(isPriceItem);
}

/** '1 credit', '5 credits'. */
const credits = (n: number) => `${n} ${n === 1 ? 'credit' : 'credits'}`;

export interface LivePrices {
  /** The text with every `{credits:item}` replaced by the live price ('5 credits'). */
  render(text: string): string;
  /** Which engine serves the models behind the items, in the answer's language; '' for none. */
  engineNote(items: readonly PriceItem[], lang: 'en' | 'ar'): string;
}

/** The price list the studio charges now (read per answer: the engine serving a model can change). */
export function livePrices(ctx: Pick<AppContext, 'engines'>): LivePrices {
  const priceOf = (item: PriceItem) => {
    const { kind, model } = CHARGED_BY[item];
    return ctx.engines.prices(kind, model)[item];
  };
  return {
    render: (text) =>
      text.replace(TOKEN, (token, item: string) => (isPriceItem(item) ? credits(priceOf(item)) : token)),
    engineNote(items, lang) {
      if (items.length === 0) return '';
      // Models grouped by the engine that serves (and prices) them, in the order the items came.
      const catalogue = ctx.engines.catalogue();
      const byEngine = new Map<string, Set<string>>();
      for (const item of items) {
        const { kind, model } = CHARGED_BY[item];
        const served = catalogue.find((m) => m.kind === kind && m.model === model);
        // '' stands for the local preview engine.
        const engine = served && served.engineKind === 'vendor' ? (vendorName(served.engine) ?? served.engine) : '';
        const names = byEngine.get(engine) ?? new Set<string>();
        names.add(modelName(model));
        byEngine.set(engine, names);
      }
      const parts = [...byEngine].map(([engine, names]) => {
        const list = [...names].join(lang === 'ar' ? '، ' : ', ');
        if (lang === 'ar') return engine ? `${list} عبر ${engine}` : `${list} على محرّك المعاينة المحلي`;
        return engine ? `${list} by ${engine}` : `${list} on the local preview engine`;
      });
      return lang === 'ar'
        ? `الأسعار من قائمة الأسعار الحالية التي يحتسبها الاستوديو: ${parts.join('؛ ')}.`
        : `Prices are the studio's live price list: ${parts.join('; ')}.`;
    },
  };
}
