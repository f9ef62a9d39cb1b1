// A local AUTOMATIC1111 web UI API (started with --api) for the contract tests: POST
// /sdapi/v1/txt2img and /sdapi/v1/img2img answer a base64 PNG with `parameters` and the `info` JSON
// string. Bodies are checked against the fields of A1111's StableDiffusion{Txt2Img,Img2Img}
// ProcessingAPI models this studio can send, as strict objects: a wrong type or an unknown field is
// FastAPI's 422 {detail: [{loc, msg, type}]}. (A1111's own models may let unknown fields through;
// the fake is stricter on purpose, so a misspelt field cannot pass unnoticed.)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

const b64Image = z.string().regex(/^(data:image\/[\w.+-]+;base64,)?[A-Za-z0-9+/]+={0,2}$/, 'not a base64 image');
const common = {
  prompt: z.string(),
  negative_prompt: z.string().optional(),
  seed: z.number().int().min(-1),
  steps: z.number().int().min(1).max(150),
  cfg_scale: z.number().min(1).max(30),
  sampler_name: z.string(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  batch_size: z.number().int().min(1).optional(),
  n_iter: z.number().int().min(1).optional(),
};
const SCHEMAS: Record<string, z.ZodType> = {
  '/sdapi/v1/txt2img': z.strictObject(common),
  '/sdapi/v1/img2img': z.strictObject({
    ...common,
    init_images: z.array(b64Image).min(1),
    denoising_strength: z.number().min(0).max(1).optional(),
    mask: b64Image.optional(),
    inpainting_fill: z.number().int().min(0).max(3).optional(),
    inpaint_full_res: z.boolean().optional(),
    mask_blur: z.number().int().min(0).optional(),
  }),
};

export interface FakeA1111 {
  url: string;
  seen: Array<{ path: string; body: Record<string, unknown> }>;
  /** Statuses answered (in order) before the normal answers. */
  failures: number[];
  close(): Promise<void>;
}

export async function startFakeA1111(png: Buffer): Promise<FakeA1111> {
  const fake = { seen: [], failures: [] } as unknown as FakeA1111;
  const server: Server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw || '{}') as Record<string, unknown>;
    fake.seen.push({ path: req.url ?? '', body });
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end(JSON.stringify(value));
    };
    const status = fake.failures.shift();
    if (status) return json(status, { error: 'HTTPException', detail: 'Invalid sampler' });
    const schema = SCHEMAS[req.url ?? ''];
    if (!schema || req.method !== 'POST') return json(404, { detail: 'Not Found' });
    const checked = schema.safeParse(body);
    if (!checked.success)
      return json(422, {
        detail: checked.error.issues.map((i) => ({
          loc: ['body', ...(i.code === 'unrecognized_keys' ? i.keys : i.path)],
          msg: i.code === 'unrecognized_keys' ? 'extra fields not permitted' : i.message,
          type: i.code === 'unrecognized_keys' ? 'value_error.extra' : `value_error.${i.code}`,
        })),
      });
    json(200, { images: [png.toString('base64')], parameters: body, info: JSON.stringify({ seed: 1234 }) });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}
