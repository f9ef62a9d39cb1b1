// A local ComfyUI for tests: /upload/image, /prompt, /history/{id} (empty for `pendingPolls` polls,
// then the outputs), /view serving a generated PNG. Failures can be scripted per endpoint.
// POST /prompt is validated as ComfyUI's server does before queueing: the body's shape (prompt graph,
// client_id, extra_data), every node a known class_type with inputs, every link pointing at a node of
// the graph, an output node present, and no value left unfilled (a "{{placeholder}}" where ComfyUI wants
// a number or a file) — answered 400 {error: {type, message, details, extra_info}, node_errors}.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { z } from 'zod';

/** The node classes of a stock ComfyUI install that the shipped workflows (and common exports) use. */
const KNOWN_CLASSES = new Set([
  'CheckpointLoaderSimple',
  'CLIPTextEncode',
  'EmptyLatentImage',
  'KSampler',
  'KSamplerAdvanced',
  'VAEDecode',
  'VAEEncode',
  'VAEEncodeForInpaint',
  'LoadImage',
  'LoadImageMask',
  'SaveImage',
  'PreviewImage',
  'ImageScale',
  'SetLatentNoiseMask',
]);
const OUTPUT_CLASSES = new Set(['SaveImage', 'PreviewImage']);

const PROMPT_BODY = z.strictObject({
  prompt: z.record(
    z.string(),
    z.object({ class_type: z.string(), inputs: z.record(z.string(), z.unknown()), _meta: z.unknown().optional() }),
  ),
  client_id: z.string().optional(),
  extra_data: z.record(z.string(), z.unknown()).optional(),
  front: z.boolean().optional(),
  number: z.number().optional(),
  prompt_id: z.string().optional(),
});

/** ComfyUI's refusal of a prompt, or undefined when it would be queued. */
function promptRefusal(body: unknown) {
  const refuse = (type: string, message: string, details = '', nodeErrors: Record<string, unknown> = {}) => ({
    error: { type, message, details, extra_info: {} },
    node_errors: nodeErrors,
  });
  const checked = PROMPT_BODY.safeParse(body);
  if (!checked.success)
    return refuse(
      'invalid_prompt',
      'Invalid prompt',
      checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
    );
  const graph = checked.data.prompt;
  const nodeErrors: Record<string, unknown> = {};
  for (const [id, node] of Object.entries(graph)) {
    if (!KNOWN_CLASSES.has(node.class_type))
      return refuse(
        'invalid_prompt',
        `Cannot execute because node ${node.class_type} does not exist.`,
        `Node ID '#${id}'`,
      );
    const errors: Array<{ type: string; message: string; details: string }> = [];
    for (const [name, value] of Object.entries(node.inputs)) {
      if (Array.isArray(value) && value.length === 2 && typeof value[1] === 'number' && !graph[String(value[0])])
        errors.push({
          type: 'exception_during_inner_validation',
          message: 'Exception when validating inner node',
          details: `${name}: linked node ${value[0]} does not exist`,
        });
      if (typeof value === 'string' && /\{\{\s*\w+\s*\}\}/.test(value) && name !== 'text')
        errors.push({
          type: 'invalid_input_type',
          message: 'Failed to convert an input value to a INT/FLOAT/file value',
          details: `${name}, ${value}`,
        });
    }
    if (errors.length > 0) nodeErrors[id] = { errors, dependent_outputs: [], class_type: node.class_type };
  }
  if (!Object.values(graph).some((n) => OUTPUT_CLASSES.has(n.class_type)))
    return refuse('prompt_no_outputs', 'Prompt has no outputs');
  if (Object.keys(nodeErrors).length > 0)
    return refuse('prompt_outputs_failed_validation', 'Prompt outputs failed validation', '', nodeErrors);
  return undefined;
}

export interface FakeComfyUi {
  url: string;
  prompts: Array<Record<string, unknown>>;
  uploads: number;
  views: string[];
  /** Status codes answered by POST /prompt before it succeeds. */
  promptFailures: number[];
  pendingPolls: number;
  /** Make the next run fail with this execution error. */
  executionError?: string;
  close(): Promise<void>;
}

export async function startFakeComfyUi(): Promise<FakeComfyUi> {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
  const polls = new Map<string, number>();
  let next = 0;
  const fake: FakeComfyUi = {
    url: '',
    prompts: [],
    uploads: 0,
    views: [],
    promptFailures: [],
    pendingPolls: 2,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const json = (res: import('node:http').ServerResponse, status: number, body: unknown, headers = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'POST' && url.pathname === '/upload/image') {
      fake.uploads++;
      return json(res, 200, { name: `upload-${fake.uploads}.png`, subfolder: '', type: 'input' });
    }
    if (req.method === 'POST' && url.pathname === '/prompt') {
      const status = fake.promptFailures.shift();
      if (status) return json(res, status, { error: { message: 'busy' } }, { 'retry-after': '0' });
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { prompt: Record<string, unknown> };
      const refusal = promptRefusal(body);
      if (refusal) return json(res, 400, refusal);
      fake.prompts.push(body.prompt);
      const id = `prompt-${++next}`;
      polls.set(id, 0);
      return json(res, 200, { prompt_id: id, number: next, node_errors: {} });
    }
    const history = /^\/history\/(.+)$/.exec(url.pathname);
    if (req.method === 'GET' && history) {
      const id = history[1];
      const seen = polls.get(id) ?? 0;
      polls.set(id, seen + 1);
      if (seen < fake.pendingPolls) return json(res, 200, {});
      if (fake.executionError)
        return json(res, 200, {
          [id]: {
            outputs: {},
            status: {
              status_str: 'error',
              completed: false,
              messages: [['execution_error', { exception_message: fake.executionError }]],
            },
          },
        });
      return json(res, 200, {
        [id]: {
          outputs: { '9': { images: [{ filename: `${id}_00001_.png`, subfolder: '', type: 'output' }] } },
          status: { status_str: 'success', completed: true, messages: [] },
        },
      });
    }
    if (req.method === 'GET' && url.pathname === '/view') {
      fake.views.push(url.search);
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(png);
    }
    json(res, 404, { error: { message: 'not found' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
