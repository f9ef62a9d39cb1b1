// Display names of the spec's model ids. Product names, so they read the same in every language.
const MODEL_NAMES: Record<string, string> = {
  seedream4: 'Seedream 4',
  nanobana: 'Nano Banana',
  'nanobana-gemini-2.5-flash-image-preview': 'Nano Banana · Gemini 2.5 Flash Image',
  seedreamai: 'Seedream AI',
  'veo-3.0-generate-001': 'Veo 3',
  'veo-3.0-generate-preview': 'Veo 3 (preview)',
  'veo-3.0-fast-generate-preview': 'Veo 3 Fast (preview)',
  'veo-3.1-generate-preview': 'Veo 3.1 (preview)',
  seedance: 'Seedance',
  'runway-gen4_turbo': 'Runway Gen-4 Turbo',
  'runway-gen4_aleph': 'Runway Gen-4 Aleph',
  'runway-act_two': 'Runway Act-Two',
  'suno-v3.5': 'Suno v3.5',
};

export function modelName(model: string): string {
  return MODEL_NAMES[model] ?? model;
}
