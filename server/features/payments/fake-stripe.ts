// A local fake of the parts of the Stripe API the studio calls (tests only): Checkout Sessions and
// subscriptions, form-encoded requests in, JSON out, every request recorded.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The form fields as sent, keys like `line_items[0][price_data][currency]`. */
  form: Record<string, string>;
}

export interface FakeStripe {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Subscriptions by id, as Stripe would return them. */
  subscriptions: Map<string, Record<string, unknown>>;
  /** Makes the next `times` calls answer 500 (a provider outage; the SDK retries). */
  failNext(times?: number): void;
  close(): Promise<void>;
}

function nested(form: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    const match = key.match(new RegExp(`^${prefix.replace(/[[\]]/g, '\\$&')}\\[([^\\]]+)\\]$`));
    if (match?.[1]) out[match[1]] = value;
  }
  return out;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const subscriptions = new Map<string, Record<string, unknown>>();
  let sessionCount = 0;
  let failures = 0;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      requests.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers, form });
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${requests.length}` });
        res.end(JSON.stringify(body));
      };
      if (failures > 0) {
        failures -= 1;
        return send(500, { error: { type: 'api_error', message: 'fake outage' } });
      }
      if (req.headers.authorization?.startsWith('Bearer sk_') !== true) {
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      }
      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        sessionCount += 1;
        const id = `cs_test_${sessionCount}`;
        return send(200, {
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/pay/${id}`,
          status: 'open',
          payment_status: 'unpaid',
          mode: form.mode,
          client_reference_id: form.client_reference_id ?? null,
          metadata: nested(form, 'metadata'),
          amount_total: Number(form['line_items[0][price_data][unit_amount]'] ?? 0),
          currency: 'eur',
        });
      }
      const sub = url.pathname.match(/^\/v1\/subscriptions\/([^/]+)$/);
      if (sub?.[1]) {
        const found = subscriptions.get(sub[1]);
        if (!found) return send(404, { error: { type: 'invalid_request_error', message: 'No such subscription' } });
        if (req.method === 'DELETE') {
          found.status = 'canceled';
          found.canceled_at = Math.floor(Date.now() / 1000);
          found.cancel_at_period_end = false;
        } else if (req.method === 'POST' && form.cancel_at_period_end !== undefined) {
          found.cancel_at_period_end = form.cancel_at_period_end === 'true';
        }
        return send(200, found);
      }
      return send(404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    subscriptions,
    failNext: (times = 10) => {
      failures = times;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
