// A local fake of the parts of the Stripe API the studio calls (tests only): Checkout Sessions,
// subscriptions and Connect transfers, form-encoded requests in, JSON out, every request recorded.
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
  /** Connected accounts (acct_…) that transfers may go to; others answer Stripe's "No such destination". */
  connectedAccounts: Set<string>;
  /** Transfers created, by id, as Stripe returns them. */
  transfers: Map<string, Record<string, unknown>>;
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

const TRANSFER_PARAMS =
  /^(amount|currency|description|destination|source_transaction|source_type|transfer_group|metadata\[[^\]]+\]|expand\[\d*\])$/;

/** POST /v1/transfers as Stripe validates it: the error Stripe would answer, or null. */
function transferError(form: Record<string, string>, accounts: Set<string>): StripeError | null {
  const unknown = Object.keys(form).find((key) => !TRANSFER_PARAMS.test(key));
  if (unknown) return invalid(`Received unknown parameter: ${unknown}`, unknown, 'parameter_unknown');
  for (const key of ['amount', 'currency', 'destination'] as const) {
    if (form[key] === undefined) return invalid(`Missing required param: ${key}.`, key, 'parameter_missing');
  }
  if (!/^[1-9]\d*$/.test(form.amount ?? ''))
    return invalid('Invalid positive integer', 'amount', 'parameter_invalid_integer');
  if (!/^[a-z]{3}$/.test(form.currency ?? ''))
    return invalid(`Invalid currency: ${form.currency}.`, 'currency', 'parameter_invalid_string_empty');
  if (!accounts.has(form.destination ?? ''))
    return invalid(`No such destination: '${form.destination}'`, 'destination', 'resource_missing');
  if (form.source_type !== undefined && !['bank_account', 'card', 'fpx'].includes(form.source_type))
    return invalid('Invalid source_type', 'source_type', 'parameter_invalid_string_empty');
  return null;
}

interface StripeError {
  status: number;
  body: { error: { type: string; message: string; param?: string; code?: string } };
}

function invalid(message: string, param: string, code: string): StripeError {
  return { status: 400, body: { error: { type: 'invalid_request_error', message, param, code } } };
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const subscriptions = new Map<string, Record<string, unknown>>();
  const connectedAccounts = new Set<string>();
  const transfers = new Map<string, Record<string, unknown>>();
  /** Idempotency-Key → the body it was first sent with and the answer, as Stripe keeps them for 24 hours. */
  const idempotent = new Map<string, { body: string; status: number; reply: unknown }>();
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
      if (req.method === 'POST' && url.pathname === '/v1/transfers') {
        const key = req.headers['idempotency-key'];
        const body = JSON.stringify(form);
        const seen = typeof key === 'string' ? idempotent.get(key) : undefined;
        if (seen) {
          if (seen.body !== body) {
            return send(400, {
              error: {
                type: 'idempotency_error',
                message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
              },
            });
          }
          return send(seen.status, seen.reply);
        }
        const refused = transferError(form, connectedAccounts);
        const id = `tr_test_${transfers.size + 1}`;
        const transfer = refused
          ? null
          : {
              id,
              object: 'transfer',
              amount: Number(form.amount),
              amount_reversed: 0,
              balance_transaction: `txn_test_${transfers.size + 1}`,
              created: Math.floor(Date.now() / 1000),
              currency: form.currency,
              description: form.description ?? null,
              destination: form.destination,
              destination_payment: `py_test_${transfers.size + 1}`,
              livemode: false,
              metadata: nested(form, 'metadata'),
              reversals: {
                object: 'list',
                data: [],
                has_more: false,
                total_count: 0,
                url: `/v1/transfers/${id}/reversals`,
              },
              reversed: false,
              source_transaction: form.source_transaction ?? null,
              source_type: form.source_type ?? 'card',
              transfer_group: form.transfer_group ?? null,
            };
        if (transfer) transfers.set(id, transfer);
        const status = refused ? refused.status : 200;
        const reply = refused ? refused.body : transfer;
        if (typeof key === 'string') idempotent.set(key, { body, status, reply });
        return send(status, reply);
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
    connectedAccounts,
    transfers,
    failNext: (times = 10) => {
      failures = times;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
