// The vendor adapters configured by environment: each vendor module returns the model names it serves
// (EngineOverrides); names no vendor serves stay on the local engines.
import type { Config } from '../../config.ts';
import { a1111Overrides } from '../a1111/a1111.ts';
import { byteplusVendor } from '../byteplus/byteplus.ts';
import { comfyUiOverrides } from '../comfyui/comfyui.ts';
import { enhancorVendor } from '../enhancor/enhancor.ts';
import { geminiOverrides } from '../gemini/index.ts';
import { openAiOverrides } from '../openai/openai.ts';
import type { EngineOverrides } from '../registry.ts';
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
