// The vendor adapters configured by environment: each vendor module returns the model names it serves
// (EngineOverrides); names no vendor serves stay on the local engines.
import type { Config } from '../../config.ts';
import { a1111Overrides } from '../a1111/a1111.ts';
import { byteplusVendor } from '../byteplus/byteplus.ts';
import { comfyUiOverrides } from '../comfyui/comfyui.ts';
import { enhancorVendor } from '../enhancor/enhancor.ts';
import { geminiOverrides } from '../gemini/index.ts';
import { openAiOverrides } from '../openai/openai.ts';
import type { EngineEnablers, EngineOverrides } from '../registry.ts';
import { replicateVendor } from '../replicate/replicate.ts';
import { runwayVendor } from '../runway/runway.ts';
import { topazVendor } from '../topaz/topaz.ts';

type VendorModule = (config: Config) => EngineOverrides;

/** Each adapter adds itself here: `(config) => config.X_API_KEY ? { image: {...} } : {}`. */
const VENDORS: VendorModule[] = [
  a1111Overrides,
  comfyUiOverrides,
  geminiOverrides,
  openAiOverrides,
  replicateVendor,
  enhancorVendor,
  topazVendor,
  runwayVendor,
  byteplusVendor,
];

export function vendorOverrides(config: Config): EngineOverrides {
  const merged: Required<EngineOverrides> = { image: {}, video: {}, audio: {}, upscale: {}, text: {} };
  for (const vendor of VENDORS) {
    const o = vendor(config);
    for (const kind of Object.keys(merged) as Array<keyof EngineOverrides>) Object.assign(merged[kind], o[kind]);
  }
  return merged;
}

/** The variables that switch a vendor adapter on (each alone is enough for the names it brings). */
const VENDOR_VARIABLES = [
  'GEMINI_API_KEY',
  'BYTEPLUS_API_KEY',
  'RUNWAY_API_KEY',
  'REPLICATE_API_TOKEN',
  'TOPAZ_API_KEY',
  'ENHANCOR_API_KEY',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'COMFYUI_URL',
  'A1111_URL',
] as const satisfies ReadonlyArray<keyof Config>;

/**
 * For each kind and name, the variables that would give it a vendor engine — found by asking every
 * adapter what it serves with only that variable set (no network: adapters only build clients), so
 * the answer follows the adapters rather than a second list. Used for "Set GEMINI_API_KEY or
 * LOCAL_ENGINES=true".
 */
export function vendorEnablers(config: Config): EngineEnablers {
  const bare = { ...config } as Record<string, unknown>;
  for (const variable of VENDOR_VARIABLES) bare[variable] = undefined;
  const out: Required<EngineEnablers> = { image: {}, video: {}, audio: {}, upscale: {}, text: {} };
  for (const variable of VENDOR_VARIABLES) {
    let served: EngineOverrides;
    try {
      served = vendorOverrides({ ...bare, [variable]: 'http://vendor.invalid' } as Config);
    } catch {
      continue;
    }
    for (const kind of Object.keys(out) as Array<keyof EngineOverrides>) {
      for (const name of Object.keys(served[kind] ?? {})) out[kind][name] = [...(out[kind][name] ?? []), variable];
    }
  }
  return out;
}
