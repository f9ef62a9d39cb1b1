// Which engine serves a model, in words people read (issue 19). Pure: shared by the server's engine
// catalogue, /healthz, the admin Engines view and every model picker and result label in the web.

/** Display names of the spec's model and service ids. Product names, so they read the same in every language. */
const MODEL_NAMES: Record<string, string> = {
  seedream4: 'Seedream 4',
  seedream: 'Seedream',
  seedreamai: 'Seedream AI',
  nanobana: 'Nano Banana',
  'nanobana-gemini-2.5-flash-image-preview': 'Nano Banana · Gemini 2.5 Flash Image',
  'gemini-2.5-flash-image': 'Gemini 2.5 Flash Image',
  'gemini-2.5-flash-image-preview': 'Gemini 2.5 Flash Image (preview)',
  stability: 'Stable Diffusion',
  runway: 'Runway',
  'veo-3.0-generate-001': 'Veo 3',
  'veo-3.0-generate-preview': 'Veo 3 (preview)',
  'veo-3.0-fast-generate-preview': 'Veo 3 Fast (preview)',
  'veo-3.1-generate-preview': 'Veo 3.1 (preview)',
  'veo-3': 'Veo 3',
  seedance: 'Seedance',
  'seedance-1-0-pro-250528': 'Seedance 1.0 Pro',
  'runway-gen4_turbo': 'Runway Gen-4 Turbo',
  'runway-gen4_aleph': 'Runway Gen-4 Aleph',
  'runway-act_two': 'Runway Act-Two',
  'suno-v3.5': 'Suno v3.5',
  voice: 'Voice',
  proteus: 'Topaz Proteus',
  'prob-4': 'Topaz Proteus (prob-4)',
  topaz: 'Topaz Video AI',
  upscale_4k: '4K upscale',
  'realistic-skin': 'Realistic Skin',
  'portrait-upscaler': 'Portrait Upscaler',
  'image-upscaler': 'Image Upscaler',
  detailed: 'Detailed',
  local: 'Text writer',
};

/** The display name of a model id (the id itself when it has none). */
export function modelName(model: string): string {
  return MODEL_NAMES[model] ?? model;
}

/** Who runs each vendor engine (its `engine.name`), as people know them. */
const VENDOR_NAMES: Record<string, string> = {
  gemini: 'Google',
  runway: 'Runway',
  byteplus: 'BytePlus',
  openai: 'OpenAI-compatible',
  comfyui: 'ComfyUI',
  a1111: 'AUTOMATIC1111',
  replicate: 'Replicate',
  topaz: 'Topaz Labs',
  enhancor: 'Enhancor',
};

/** The vendor behind an engine name ('gemini' → 'Google'); null for the local engines. */
export function vendorName(engine: string): string | null {
  if (engine === 'local') return null;
  return VENDOR_NAMES[engine] ?? engine;
}
