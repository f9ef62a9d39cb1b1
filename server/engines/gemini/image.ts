// Nano Banana (Gemini 2.5 Flash Image) through generateContent: the prompt and any pictures travel as
// inline parts, the picture comes back as an inline part. Outputs are brought to the size the studio
// asked for; inpaint keeps every pixel outside the mask from the original.
import sharp from 'sharp';
import { decode, encode, formatOf, fromRaw, type RawImage, resizeRaw } from '../local/raw.ts';
import type {
  ComposeImageRequest,
  EditImageRequest,
  EngineCallOptions,
  ImageEngine,
  ImageOutputFormat,
  ImageResult,
  InpaintRequest,
  TextToImageRequest,
} from '../types.ts';
import { VendorError, vendorContentFiltered } from '../vendor/http.ts';
import {
  assertNotBlocked,
  type GeminiSettings,
  type GenerateContentReply,
  geminiCall,
  geminiClient,
  inlinePart,
  type Part,
  VENDOR,
} from './api.ts';

/** The aspect ratios `imageConfig.aspectRatio` accepts. */
const ASPECTS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'] as const;

/** The supported aspect ratio nearest (in log scale) to width:height. */
function nearestAspect(width: number, height: number): string {
  const want = Math.log(width / height);
  let best: string = ASPECTS[0];
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const aspect of ASPECTS) {
    const [a, b] = aspect.split(':').map(Number);
    const distance = Math.abs(Math.log(a / b) - want);
    if (distance < bestDistance) {
      best = aspect;
      bestDistance = distance;
    }
  }
  return best;
}

const INPAINT_INSTRUCTIONS: Record<string, string> = {
  inpaint: 'Fill the masked area with what the instruction describes so it blends naturally with the rest.',
  'add-remove':
    'Add or remove what the instruction says inside the masked area; when removing, continue the surroundings.',
  replace:
    'Replace the contents of the masked area with the subject of the reference image, matching light and perspective.',
  'style-transfer': 'Restyle the masked area in the style of the reference image.',
  photorealistic: 'Make the masked area photorealistic, with natural detail and lighting.',
  stylized: 'Render the masked area as a stylised painting.',
  'comic-panel': 'Render the masked area as a bold comic-book panel with inks and flat colours.',
};

interface Generated {
  image: RawImage;
  vendorWidth: number;
  vendorHeight: number;
  note?: string;
}

/** The spec's composition modes, as an instruction to the model. */
const COMPOSITION_INSTRUCTIONS: Record<string, string> = {
  'high-fidelity-preservation': 'Keep the subject image faithful: its identity, shapes and details unchanged.',
  'iterative-refinement': 'Refine the picture in several passes until it follows every reference closely.',
  'advanced-composition':
    'Take the layout and structure from the composition reference and the colours from the others.',
};

export class GeminiImageEngine implements ImageEngine {
  readonly name = 'gemini';

  constructor(
    private readonly settings: GeminiSettings,
    /** The Gemini model id every image name is sent to (e.g. gemini-2.5-flash-image). */
    private readonly vendorModel: string,
  ) {}

  async textToImage(request: TextToImageRequest, options: EngineCallOptions = {}): Promise<ImageResult> {
    const refs = request.referenceImages ?? [];
    const text = [
      request.prompt,
      request.style ? `Style: ${request.style}.` : '',
      request.negativePrompt ? `Avoid: ${request.negativePrompt}.` : '',
      refs.length > 0 ? `Use the ${refs.length} attached image(s) as style and character references.` : '',
    ]
      .filter(Boolean)
      .join('\n');
    const aspectRatio = nearestAspect(request.width, request.height);
    const generated = await this.generate(
      [{ text }, ...refs.map(inlinePart)],
      { aspectRatio, seed: request.seed },
      options,
    );
    return this.finish(request.model, generated, request.width, request.height, request.outputFormat, {
      operation: 'text-to-image',
      aspectRatio,
      seed: request.seed,
      referenceCount: refs.length,
    });
  }

  async edit(request: EditImageRequest, options: EngineCallOptions = {}): Promise<ImageResult> {
    const source = await sharp(request.image.data).metadata();
    const width = request.width ?? source.width ?? 1024;
    const height = request.height ?? source.height ?? 1024;
    const parts: Part[] = [
      {
        text: `Edit the first image: ${request.prompt}${request.reference ? '\nUse the second image as the colour and style reference.' : ''}`,
      },
      inlinePart(request.image),
    ];
    if (request.reference) parts.push(inlinePart(request.reference));
    const aspectRatio = nearestAspect(width, height);
    const generated = await this.generate(parts, { aspectRatio, seed: request.seed }, options);
    return this.finish(request.model, generated, width, height, request.outputFormat, {
      operation: 'edit',
      aspectRatio,
      seed: request.seed,
    });
  }

  async compose(request: ComposeImageRequest, options: EngineCallOptions = {}): Promise<ImageResult> {
    const total = request.images.reduce((sum, i) => sum + Math.max(0, i.weight), 0) || 1;
    const lines = request.images.map((item, index) => {
      const share = Math.round((Math.max(0, item.weight) / total) * 100);
      return `Image ${index + 1}${item.role ? ` (${item.role})` : ''}: ${share}% influence.`;
    });
    const strength = Math.round((request.strength ?? 0.75) * 100);
    const text = [
      `Combine the attached images into one picture (${request.blendMode ?? 'weighted'} blend). Let each image shape the result in proportion to its influence:`,
      ...lines,
      `Then apply this instruction at ${strength}% strength: ${request.prompt}`,
      COMPOSITION_INSTRUCTIONS[request.compositionMode ?? ''] ?? '',
      request.preserveDetails === false
        ? 'A smooth, simplified rendering is fine.'
        : 'Preserve the fine details and textures of the references.',
      request.negativePrompt ? `Avoid: ${request.negativePrompt}.` : '',
    ]
      .filter(Boolean)
      .join('\n');
    const aspectRatio = nearestAspect(request.width, request.height);
    const generated = await this.generate(
      [{ text }, ...request.images.map((i) => inlinePart(i.image))],
      { aspectRatio, seed: request.seed },
      options,
    );
    return this.finish(request.model, generated, request.width, request.height, request.outputFormat, {
      operation: 'compose',
      aspectRatio,
      seed: request.seed,
      blendMode: request.blendMode ?? 'weighted',
      weights: request.images.map((i) => i.weight),
    });
  }

  async inpaint(request: InpaintRequest, options: EngineCallOptions = {}): Promise<ImageResult> {
    const original = await decode(request.image, true);
    const instruction = INPAINT_INSTRUCTIONS[request.mode] ?? INPAINT_INSTRUCTIONS.inpaint;
    const text = [
      'The first image is the picture to edit. The second image is a mask of the same picture: white marks the area to change, black the area that must stay exactly as it is.',
      instruction,
      request.reference ? 'The third image is the reference.' : '',
      request.styleStrength !== undefined ? `Style strength: ${Math.round(request.styleStrength * 100)}%.` : '',
      `Instruction: ${request.prompt}`,
    ]
      .filter(Boolean)
      .join('\n');
    const parts: Part[] = [{ text }, inlinePart(request.image), inlinePart(request.mask)];
    if (request.reference) parts.push(inlinePart(request.reference));
    const aspectRatio = nearestAspect(original.width, original.height);
    const generated = await this.generate(parts, { aspectRatio, seed: request.seed }, options);
    const painted = await resizeRaw(generated.image, original.width, original.height, 'fill');
    const mask = await sharp(request.mask.data)
      .rotate()
      .greyscale()
      .resize(original.width, original.height, { fit: 'fill', kernel: 'nearest' })
      .raw()
      .toBuffer();
    const merged = blendByMask(original, painted, mask);
    return this.finish(
      request.model,
      { ...generated, image: merged },
      original.width,
      original.height,
      request.outputFormat,
      { operation: 'inpaint', mode: request.mode, aspectRatio, seed: request.seed },
    );
  }

  private async generate(
    parts: Part[],
    config: { aspectRatio: string; seed?: number },
    options: EngineCallOptions,
  ): Promise<Generated> {
    options.onProgress?.(0.05);
    const data = (await geminiCall(
      () =>
        geminiClient(this.settings).models.generateContent({
          model: this.vendorModel,
          contents: [{ role: 'user', parts }],
          config: {
            responseModalities: ['TEXT', 'IMAGE'],
            imageConfig: { aspectRatio: config.aspectRatio },
            ...(config.seed !== undefined ? { seed: config.seed } : {}),
            abortSignal: options.signal,
          },
        }),
      options.signal,
    )) as GenerateContentReply;
    options.onProgress?.(0.85);
    assertNotBlocked(data);
    const candidate = data.candidates?.[0];
    const outParts = candidate?.content?.parts ?? [];
    const picture = outParts.find((p) => p.inlineData?.data && p.inlineData.mimeType?.startsWith('image/'));
    const note = outParts
      .filter((p) => typeof p.text === 'string' && !p.thought)
      .map((p) => p.text)
      .join(' ')
      .trim();
    if (!picture?.inlineData) {
      const finish = candidate?.finishReason;
      if (finish === 'NO_IMAGE' || finish === 'IMAGE_OTHER' || !candidate)
        throw new VendorError(VENDOR, `no image was produced (${finish ?? 'no candidates'})`, false);
      // A plain STOP with words and no picture is the model declining the request.
      throw vendorContentFiltered(VENDOR, `no image was returned${note ? `: ${note.slice(0, 200)}` : ''}`);
    }
    const bytes = Buffer.from(picture.inlineData.data, 'base64');
    let image: RawImage;
    try {
      image = await decode(bytes);
    } catch {
      throw new VendorError(VENDOR, 'the returned image does not decode', true);
    }
    return { image, vendorWidth: image.width, vendorHeight: image.height, note: note || undefined };
  }

  private async finish(
    model: string,
    generated: Generated,
    width: number,
    height: number,
    format: ImageOutputFormat | undefined,
    extra: Record<string, unknown>,
  ): Promise<ImageResult> {
    const sized = await resizeRaw(generated.image, width, height, 'cover');
    const out = await encode(fromRaw(sized), formatOf(format));
    const seed = typeof extra.seed === 'number' ? extra.seed : undefined;
    return {
      ...out,
      seed,
      metadata: {
        engine: 'gemini',
        model,
        vendorModel: this.vendorModel,
        vendorWidth: generated.vendorWidth,
        vendorHeight: generated.vendorHeight,
        ...(generated.note ? { vendorNote: generated.note.slice(0, 500) } : {}),
        ...extra,
      },
    };
  }
}

/** Mask 0 (under 3) keeps the original pixel byte for byte; otherwise blends by the mask value. */
function blendByMask(original: RawImage, painted: RawImage, mask: Buffer): RawImage {
  const n = original.width * original.height;
  const out = Buffer.from(original.data);
  const oc = original.channels;
  const pc = painted.channels;
  for (let p = 0; p < n; p++) {
    const m = mask[p];
    if (m < 3) continue;
    const a = m / 255;
    for (let c = 0; c < 3; c++) {
      const o = original.data[p * oc + c];
      out[p * oc + c] = Math.round(o + (painted.data[p * pc + c] - o) * a);
    }
  }
  return { ...original, data: out };
}
