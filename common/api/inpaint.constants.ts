// Magic Selector (issue 5). Named by the spec; server and web import them.

/** Magic Selector (canvas spec 2, 5, 9): modes, qualities, brush and style strength defaults. */
export const MAGIC_SELECTOR = {
  /** The six modes the panel offers; 'replace' is handled too and needs a reference. */
  modes: ['inpaint', 'style-transfer', 'add-remove', 'photorealistic', 'stylized', 'comic-panel', 'replace'],
  /** Modes that use the reference image. */
  referenceModes: ['replace', 'style-transfer'],
  qualities: ['draft', 'standard', 'premium'],
  quality: 'standard',
  /** Style strength 0–100 on the panel (sent as is; the server scales it to 0–1). */
  styleStrength: 75,
  brushWidth: 20,
  model: 'stability',
  inputMaxMb: 10,
  /** Accepted upload extensions (one file). */
  extensions: ['png', 'jpg', 'jpeg', 'webp'],
  /** The same formats by their sniffed MIME type, for the server's check of base and reference images. */
  mimeTypes: ['image/png', 'image/jpeg', 'image/webp'],
  stylePrompt: 'Apply style from reference image',
} as const;
