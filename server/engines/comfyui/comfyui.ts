// ComfyUI as an ImageEngine: each operation runs an API-format workflow file from
// COMFYUI_WORKFLOW_DIR (text-to-image.json, image-to-image.json, inpaint.json) with its "{{…}}"
// placeholders filled in, queued with POST /prompt, polled on /history/{id}, fetched from /view.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../config.ts';
import type { EngineOverrides } from '../registry.ts';
import type {
  ComposeImageRequest,
  EditImageRequest,
  EngineCallOptions,
  ImageEngine,
  ImageOutputFormat,
  ImageResult,
  InpaintRequest,
  MediaBuffer,
  TextToImageRequest,
} from '../types.ts';
import { downloadOutput, pollUntil, VendorError, vendorJson } from '../vendor/http.ts';
import { heaviestImage, imageResult, seedOf } from './output.ts';

const VENDOR = 'ComfyUI';
const DEFAULT_WORKFLOW_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'workflows');

type Operation = 'text-to-image' | 'image-to-image' | 'inpaint';

export interface ComfyUiOptions {
  baseUrl: string;
  workflowDir?: string;
  pollIntervalMs?: number;
  timeoutMs?: number;
}

interface HistoryEntry {
  status?: { status_str?: string; completed?: boolean; messages?: Array<[string, Record<string, unknown>]> };
  outputs?: Record<string, { images?: Array<{ filename: string; subfolder?: string; type?: string }> }>;
}

/**
 * Replaces placeholders in every string of the workflow. A string that is exactly one placeholder
 * takes the value's own type (numbers stay numbers, as ComfyUI's inputs expect).
 */
export function fillWorkflow(node: unknown, values: Record<string, string | number>): unknown {
  if (typeof node === 'string') {
    const whole = /^\{\{(\w+)\}\}$/.exec(node);
    if (whole && whole[1] in values) return values[whole[1]];
    return node.replace(/\{\{(\w+)\}\}/g, (match, key: string) => (key in values ? String(values[key]) : match));
  }
  if (Array.isArray(node)) return node.map((n) => fillWorkflow(n, values));
  if (node && typeof node === 'object')
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, fillWorkflow(v, values)]));
  return node;
}

function describe(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const b = body as {
      error?: { message?: string; details?: string } | string;
      node_errors?: Record<string, unknown>;
    };
    const nodeErrors = b.node_errors && Object.keys(b.node_errors).length > 0 ? JSON.stringify(b.node_errors) : '';
    if (typeof b.error === 'string') return b.error;
    if (b.error?.message) return [b.error.message, b.error.details, nodeErrors].filter(Boolean).join(': ');
  }
  return typeof body === 'string' && body ? body.slice(0, 300) : undefined;
}

export class ComfyUiImageEngine implements ImageEngine {
  readonly name = 'comfyui';
  private readonly base: string;
  private readonly workflowDir: string;

  constructor(private readonly options: ComfyUiOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.workflowDir = options.workflowDir ?? DEFAULT_WORKFLOW_DIR;
  }

  private async workflow(operation: Operation): Promise<unknown> {
    const file = path.join(this.workflowDir, `${operation}.json`);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      throw new VendorError(VENDOR, `no workflow for ${operation} (expected ${file})`, false);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new VendorError(VENDOR, `the workflow ${file} is not valid JSON`, false);
    }
  }

  /** POST /upload/image (multipart); answers the name the workflow's LoadImage node refers to. */
  private async upload(image: MediaBuffer, label: string, signal?: AbortSignal): Promise<string> {
    const form = new FormData();
    const ext = image.mimeType.split('/')[1] ?? 'png';
    form.append(
      'image',
      new Blob([new Uint8Array(image.data)], { type: image.mimeType }),
      `genpro-${label}-${randomUUID()}.${ext}`,
    );
    form.append('overwrite', 'true');
    const { data } = await vendorJson<{ name: string; subfolder?: string }>(
      VENDOR,
      `${this.base}/upload/image`,
      { method: 'POST', body: form, signal },
      describe,
    );
    return data.subfolder ? `${data.subfolder}/${data.name}` : data.name;
  }

  private async run(
    operation: Operation,
    values: Record<string, string | number>,
    model: string,
    format: ImageOutputFormat | undefined,
    options: EngineCallOptions,
  ): Promise<ImageResult> {
    const { signal, onProgress } = options;
    const prompt = fillWorkflow(await this.workflow(operation), values);
    const queued = await vendorJson<{ prompt_id?: string; node_errors?: Record<string, unknown> }>(
      VENDOR,
      `${this.base}/prompt`,
      { json: { prompt, client_id: randomUUID() }, signal },
      describe,
    );
    const id = queued.data.prompt_id;
    if (!id) throw new VendorError(VENDOR, describe(queued.data) ?? 'the prompt was not queued', false);
    onProgress?.(0.05);
    const timeoutMs = this.options.timeoutMs ?? 10 * 60_000;
    const entry = await pollUntil(
      VENDOR,
      async () => {
        const { data } = await vendorJson<Record<string, HistoryEntry>>(VENDOR, `${this.base}/history/${id}`, {
          signal,
        });
        const found = data?.[id];
        if (!found) return undefined;
        if (found.status?.status_str === 'error') {
          const failed = found.status.messages?.find(([kind]) => kind === 'execution_error')?.[1];
          throw new VendorError(VENDOR, String(failed?.exception_message ?? 'the workflow failed'), false);
        }
        const done = found.status?.completed !== false && found.outputs && Object.keys(found.outputs).length > 0;
        return done ? found : undefined;
      },
      {
        intervalMs: this.options.pollIntervalMs ?? 1000,
        timeoutMs,
        signal,
        // ComfyUI's history says nothing about progress; report time spent against a typical minute.
        onTick: (elapsed) => onProgress?.(Math.min(0.9, 0.05 + elapsed / 60_000)),
      },
    );
    const image = Object.values(entry.outputs ?? {})
      .flatMap((o) => o.images ?? [])
      .find((i) => (i.type ?? 'output') === 'output');
    if (!image) throw new VendorError(VENDOR, 'the workflow saved no image (does it end in a SaveImage node?)', false);
    const query = new URLSearchParams({
      filename: image.filename,
      subfolder: image.subfolder ?? '',
      type: image.type ?? 'output',
    });
    const file = await downloadOutput(VENDOR, `${this.base}/view?${query}`, { signal });
    onProgress?.(1, 0);
    const seed = typeof values.seed === 'number' ? values.seed : undefined;
    return imageResult(
      VENDOR,
      file.data,
      format,
      { engine: 'comfyui', model, workflow: operation, promptId: id },
      seed,
    );
  }

  async textToImage(request: TextToImageRequest, options: EngineCallOptions = {}): Promise<ImageResult> {
    const prompt = request.style ? `${request.prompt}, ${request.style} style` : request.prompt;
    return this.run(
      'text-to-image',
      {
        prompt,
        negative_prompt: request.negativePrompt ?? '',
        seed: seedOf(request.seed),
        width: request.width,
        height: request.height,
      },
      request.model,
      request.outputFormat,
      options,
    );
  }

  async edit(request: EditImageRequest, options: EngineCallOptions = {}): Promise<ImageResult> {
    const image = await this.upload(request.image, 'source', options.signal);
    return this.run(
      'image-to-image',
      { prompt: request.prompt, negative_prompt: '', seed: seedOf(request.seed), image, denoise: 0.6 },
      request.model,
      request.outputFormat,
      options,
    );
  }

  async compose(request: ComposeImageRequest, options: EngineCallOptions = {}): Promise<ImageResult> {
    const image = await this.upload(heaviestImage(request), 'source', options.signal);
    return this.run(
      'image-to-image',
      {
        prompt: request.prompt,
        negative_prompt: request.negativePrompt ?? '',
        seed: seedOf(request.seed),
        image,
        denoise: request.strength ?? 0.75,
      },
      request.model,
      request.outputFormat,
      options,
    );
  }

  async inpaint(request: InpaintRequest, options: EngineCallOptions = {}): Promise<ImageResult> {
    const image = await this.upload(request.image, 'source', options.signal);
    const mask = await this.upload(request.mask, 'mask', options.signal);
    return this.run(
      'inpaint',
      { prompt: request.prompt, negative_prompt: '', seed: seedOf(request.seed), image, mask },
      request.model,
      request.outputFormat,
      options,
    );
  }
}

/** Serves each name in COMFYUI_MODELS (default `stability`) when COMFYUI_URL is set. */
export function comfyUiOverrides(config: Config): EngineOverrides {
  if (!config.COMFYUI_URL) return {};
  const engine = new ComfyUiImageEngine({ baseUrl: config.COMFYUI_URL, workflowDir: config.COMFYUI_WORKFLOW_DIR });
  return { image: Object.fromEntries(config.COMFYUI_MODELS.map((name) => [name, engine])) };
}
