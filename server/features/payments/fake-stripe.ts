// A local fake of the parts of the Stripe API the studio calls (tests only): Checkout Sessions,
// subscriptions, Connect (Express accounts, Account Links with an onboarding page, transfers and their
// reversals), form-encoded requests in, JSON out, every request recorded; and signed webhook events of
// connected accounts (account.updated, payout.paid, payout.failed) sent to the studio.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  closeServer,
  formFields,
  listenLocally,
  matchRoute,
  type Route,
  readBody,
  sendEmpty,
  sendJson,
} from '../../test/fakes/fake-http.ts';
import { accountError, invalid, linkError, nested, REVERSAL_PARAMS, transferError } from './fake-stripe-requests.ts';
import { signStripePayload } from './signature.ts';

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
  /** Express accounts created through POST /v1/accounts, by id, as Stripe returns them. */
  accounts: Map<string, Record<string, unknown>>;
  /** Reversals created, by transfer id. */
  reversals: Map<string, Record<string, unknown>[]>;
  /** Where signed events go: the studio's webhook (an HTTP URL, or a function for an in-process app). */
  useWebhook(target: { secret: string; url?: string; deliver?: WebhookDelivery }): void;
  /** Sends a signed event (a connected account's when `account` is given); the studio's answer and the event. */
  sendEvent(
    type: string,
    object: Record<string, unknown>,
    account?: string,
  ): Promise<{ status: number; event: Record<string, unknown> }>;
  /** Sends an event exactly as before (a replay: same id, new signature). */
  resend(event: Record<string, unknown>): Promise<{ status: number }>;
  /**
   * The connected account pays `amountCents` out to its bank: a payout object and its payout.paid, or
   * payout.failed with Stripe's failure_code / failure_message when `failure` is given.
   */
  payOut(
    account: string,
    amountCents: number,
    failure?: { code: string; message: string },
  ): Promise<{ status: number; event: Record<string, unknown> }>;
  /** Makes every Account Link made so far expire (its page then redirects to refresh_url). */
  expireAccountLinks(): void;
  /** Makes the next `times` calls answer 500 (a provider outage; the SDK retries). */
  failNext(times?: number): void;
  close(): Promise<void>;
}

type WebhookDelivery = (body: string, signature: string) => Promise<number>;

/** What the fake keeps between requests. */
interface State {
  requests: RecordedRequest[];
  subscriptions: Map<string, Record<string, unknown>>;
  connectedAccounts: Set<string>;
  transfers: Map<string, Record<string, unknown>>;
  /** Idempotency-Key → the body it was first sent with and the answer, as Stripe keeps them for 24 hours. */
  idempotent: Map<string, { body: string; status: number; reply: unknown }>;
  accounts: Map<string, Record<string, unknown>>;
  reversals: Map<string, Record<string, unknown>[]>;
  /** Account Link token → the account and where its page goes back to. */
  links: Map<string, { account: string; refresh: string; return: string; expires: number; used: boolean }>;
  webhook: { secret: string; deliver: WebhookDelivery } | null;
  sessionCount: number;
  failures: number;
  eventCount: number;
  payoutCount: number;
  baseUrl: string;
}

interface StripeRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** The form-encoded body's fields. */
  form: Record<string, string>;
  /** A JSON reply with Stripe's request-id. */
  send(status: number, body: unknown): void;
}

type Handler = (state: State, r: StripeRequest, params: string[]) => unknown;

type Answer = { status: number; reply: unknown };

const now = () => Math.floor(Date.now() / 1000);

async function deliverEvent(state: State, event: Record<string, unknown>): Promise<number> {
  if (!state.webhook) throw new Error('fake Stripe: no webhook set (useWebhook)');
  const body = JSON.stringify(event);
  return state.webhook.deliver(body, signStripePayload(body, state.webhook.secret, now()));
}

function event(state: State, type: string, object: Record<string, unknown>, account?: string): Record<string, unknown> {
  state.eventCount += 1;
  return {
    id: `evt_test_${randomBytes(6).toString('hex')}${state.eventCount}`,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: now(),
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    ...(account ? { account } : {}),
    data: { object },
  };
}

/** The onboarding page: completes what Stripe asks of the account, tells the studio, goes back. */
async function onboard(state: State, token: string): Promise<string | null> {
  const link = state.links.get(token);
  if (!link) return null;
  if (link.used || link.expires < now()) return link.refresh;
  link.used = true;
  const account = state.accounts.get(link.account);
  if (!account) return link.refresh;
  Object.assign(account, {
    charges_enabled: true,
    payouts_enabled: true,
    details_submitted: true,
    capabilities: { transfers: 'active' },
    requirements: { currently_due: [], eventually_due: [], past_due: [], disabled_reason: null, errors: [] },
  });
  if (state.webhook) await deliverEvent(state, event(state, 'account.updated', structuredClone(account), link.account));
  return link.return;
}

/** Replays an Idempotency-Key (same body → same answer; other body → idempotency_error), or runs `make`. */
function idempotently(state: State, r: StripeRequest, make: () => Answer): Answer {
  const key = r.req.headers['idempotency-key'];
  const body = JSON.stringify(r.form);
  const seen = typeof key === 'string' ? state.idempotent.get(key) : undefined;
  if (seen) {
    if (seen.body !== body) {
      return {
        status: 400,
        reply: {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          },
        },
      };
    }
    return seen;
  }
  const answer = make();
  if (typeof key === 'string') state.idempotent.set(key, { body, ...answer });
  return answer;
}

/** An Account Link's page (no API key): onboards the account, then redirects to return_url (or refresh_url). */
const onboardingPage: Handler = (state, r, [token]) => {
  void onboard(state, token as string).then(
    (to) => {
      if (!to) return r.send(404, { error: { type: 'invalid_request_error', message: 'Unknown account link' } });
      sendEmpty(r.res, 302, { location: to });
    },
    (error: unknown) => r.send(500, { error: { type: 'api_error', message: String(error) } }),
  );
};

const createCheckoutSession: Handler = (state, { form, send }) => {
  state.sessionCount += 1;
  const id = `cs_test_${state.sessionCount}`;
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
};

const ACCOUNT_DUE = ['business_type', 'external_account', 'tos_acceptance.date', 'tos_acceptance.ip'];

/** POST /v1/accounts: an Express account with its requirements all due. */
const createAccount: Handler = (state, r) => {
  const { form } = r;
  const { status, reply } = idempotently(state, r, () => {
    const refused = accountError(form);
    if (refused) return { status: refused.status, reply: refused.body };
    const id = `acct_1${randomBytes(7).toString('hex')}`;
    const account = {
      id,
      object: 'account',
      type: form.type ?? 'express',
      country: form.country ?? 'DE',
      email: form.email ?? null,
      default_currency: 'eur',
      created: now(),
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      capabilities: { transfers: form['capabilities[transfers][requested]'] === 'true' ? 'inactive' : undefined },
      requirements: {
        currently_due: [...ACCOUNT_DUE],
        eventually_due: [...ACCOUNT_DUE],
        past_due: [...ACCOUNT_DUE],
        disabled_reason: 'requirements.past_due',
        errors: [],
      },
      metadata: nested(form, 'metadata'),
    };
    state.accounts.set(id, account);
    return { status: 200, reply: account };
  });
  return r.send(status, reply);
};

const getAccount: Handler = (state, { send }, [id]) => {
  const found = state.accounts.get(id as string);
  if (!found)
    return send(404, {
      error: {
        type: 'invalid_request_error',
        message: `No such account: '${id}'`,
        param: 'account',
        code: 'resource_missing',
      },
    });
  return send(200, found);
};

/** POST /v1/account_links: a link to the fake's onboarding page, valid 5 minutes and once. */
const createAccountLink: Handler = (state, { form, send }) => {
  const refused = linkError(form, state.accounts);
  if (refused) return send(refused.status, refused.body);
  const token = randomBytes(12).toString('hex');
  const created = now();
  state.links.set(token, {
    account: form.account ?? '',
    refresh: form.refresh_url ?? '',
    return: form.return_url ?? '',
    expires: created + 300,
    used: false,
  });
  return send(200, {
    object: 'account_link',
    created,
    expires_at: created + 300,
    url: `${state.baseUrl}/connect/onboarding/${token}`,
  });
};

/** A reversal of (part of) what is left of the transfer, or Stripe's refusal. */
function reverse(state: State, form: Record<string, string>, transferId: string): Answer {
  const transfer = state.transfers.get(transferId);
  if (!transfer)
    return {
      status: 404,
      reply: invalid(`No such transfer: '${transferId}'`, 'id', 'resource_missing').body,
    };
  const unknown = Object.keys(form).find((key) => !REVERSAL_PARAMS.test(key));
  if (unknown)
    return {
      status: 400,
      reply: invalid(`Received unknown parameter: ${unknown}`, unknown, 'parameter_unknown').body,
    };
  const left = Number(transfer.amount) - Number(transfer.amount_reversed);
  const amount = form.amount === undefined ? left : Number(form.amount);
  if (!Number.isInteger(amount) || amount <= 0)
    return {
      status: 400,
      reply: invalid('Invalid positive integer', 'amount', 'parameter_invalid_integer').body,
    };
  if (amount > left)
    return {
      status: 400,
      reply: invalid(
        `You have requested a reversal of ${amount}, but the amount that is still reversible is ${left}.`,
        'amount',
        'amount_too_large',
      ).body,
    };
  const list = state.reversals.get(transferId) ?? [];
  const reversal = {
    id: `trr_test_${list.length + 1}_${transferId}`,
    object: 'transfer_reversal',
    amount,
    currency: transfer.currency,
    created: now(),
    transfer: transferId,
    metadata: nested(form, 'metadata'),
  };
  list.push(reversal);
  state.reversals.set(transferId, list);
  transfer.amount_reversed = Number(transfer.amount_reversed) + amount;
  transfer.reversed = transfer.amount_reversed === transfer.amount;
  return { status: 200, reply: reversal };
}

const createReversal: Handler = (state, r, [transferId]) => {
  const { status, reply } = idempotently(state, r, () => reverse(state, r.form, transferId as string));
  return r.send(status, reply);
};

/** A transfer to a connected account, or Stripe's refusal. */
function transfer(state: State, form: Record<string, string>): Answer {
  const refused = transferError(form, state.connectedAccounts, state.accounts);
  if (refused) return { status: refused.status, reply: refused.body };
  const { transfers } = state;
  const id = `tr_test_${transfers.size + 1}`;
  const created = {
    id,
    object: 'transfer',
    amount: Number(form.amount),
    amount_reversed: 0,
    balance_transaction: `txn_test_${transfers.size + 1}`,
    created: now(),
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
  transfers.set(id, created);
  return { status: 200, reply: created };
}

const createTransfer: Handler = (state, r) => {
  const { status, reply } = idempotently(state, r, () => transfer(state, r.form));
  return r.send(status, reply);
};

/** A subscription: read (GET), updated (POST cancel_at_period_end) or canceled now (DELETE). */
const subscription: Handler = (state, { req, form, send }, [id]) => {
  const found = state.subscriptions.get(id as string);
  if (!found) return send(404, { error: { type: 'invalid_request_error', message: 'No such subscription' } });
  if (req.method === 'DELETE') {
    found.status = 'canceled';
    found.canceled_at = now();
    found.cancel_at_period_end = false;
  } else if (req.method === 'POST' && form.cancel_at_period_end !== undefined) {
    found.cancel_at_period_end = form.cancel_at_period_end === 'true';
  }
  return send(200, found);
};

/** The API, with a secret key. */
const API: ReadonlyArray<Route<Handler>> = [
  { method: 'POST', path: '/v1/checkout/sessions', handle: createCheckoutSession },
  { method: 'POST', path: '/v1/accounts', handle: createAccount },
  { method: 'GET', path: /^\/v1\/accounts\/(acct_[A-Za-z0-9]+)$/, handle: getAccount },
  { method: 'POST', path: '/v1/account_links', handle: createAccountLink },
  { method: 'POST', path: /^\/v1\/transfers\/(tr_[A-Za-z0-9_]+)\/reversals$/, handle: createReversal },
  { method: 'POST', path: '/v1/transfers', handle: createTransfer },
  { method: '*', path: /^\/v1\/subscriptions\/([^/]+)$/, handle: subscription },
];

const ONBOARDING_PAGE = /^\/connect\/onboarding\/([a-f0-9]+)$/;

async function handleRequest(state: State, req: IncomingMessage, res: ServerResponse) {
  const raw = await readBody(req);
  const url = new URL(req.url ?? '/', 'http://fake');
  const form = formFields(raw);
  state.requests.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers, form });
  const send = (status: number, body: unknown) =>
    sendJson(res, status, body, { 'request-id': `req_${state.requests.length}` });
  const r: StripeRequest = { req, res, url, form, send };
  if (state.failures > 0) {
    state.failures -= 1;
    return send(500, { error: { type: 'api_error', message: 'fake outage' } });
  }
  const page = req.method === 'GET' ? ONBOARDING_PAGE.exec(url.pathname) : null;
  if (page) return onboardingPage(state, r, page.slice(1));
  if (req.headers.authorization?.startsWith('Bearer sk_') !== true) {
    return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
  }
  const route = matchRoute(API, req.method ?? '', url.pathname);
  if (route) return route.handle(state, r, route.params);
  return send(404, {
    error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` },
  });
}

/** The connected account's payout to its bank, paid or failed with Stripe's failure_code and failure_message. */
function payout(state: State, account: string, amountCents: number, failure?: { code: string; message: string }) {
  state.payoutCount += 1;
  const created = now();
  return {
    id: `po_test_${state.payoutCount}${randomBytes(4).toString('hex')}`,
    object: 'payout',
    amount: amountCents,
    currency: 'eur',
    arrival_date: created + 86_400,
    automatic: true,
    balance_transaction: `txn_po_${state.payoutCount}`,
    created,
    destination: `ba_test_${account}`,
    failure_balance_transaction: failure ? `txn_pofail_${state.payoutCount}` : null,
    failure_code: failure?.code ?? null,
    failure_message: failure?.message ?? null,
    livemode: false,
    metadata: {},
    method: 'standard',
    source_type: 'card',
    statement_descriptor: null,
    status: failure ? 'failed' : 'paid',
    type: 'bank_account',
  };
}

/** Delivery by HTTP POST to the studio's webhook URL. */
function postTo(url: string | undefined): WebhookDelivery {
  return async (body, signature) => {
    if (!url) throw new Error('fake Stripe: useWebhook needs a url or deliver');
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
      body,
    });
    return res.status;
  };
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const state: State = {
    requests: [],
    subscriptions: new Map(),
    connectedAccounts: new Set(),
    transfers: new Map(),
    idempotent: new Map(),
    accounts: new Map(),
    reversals: new Map(),
    links: new Map(),
    webhook: null,
    sessionCount: 0,
    failures: 0,
    eventCount: 0,
    payoutCount: 0,
    baseUrl: '',
  };
  const server = createServer((req, res) => handleRequest(state, req, res));
  state.baseUrl = await listenLocally(server);
  return {
    baseUrl: state.baseUrl,
    requests: state.requests,
    subscriptions: state.subscriptions,
    connectedAccounts: state.connectedAccounts,
    transfers: state.transfers,
    accounts: state.accounts,
    reversals: state.reversals,
    useWebhook: ({ secret, url, deliver }) => {
      state.webhook = { secret, deliver: deliver ?? postTo(url) };
    },
    sendEvent: async (type, object, account) => {
      const sent = event(state, type, object, account);
      return { status: await deliverEvent(state, sent), event: sent };
    },
    resend: async (sent) => ({ status: await deliverEvent(state, sent) }),
    payOut: async (account, amountCents, failure) => {
      const paid = payout(state, account, amountCents, failure);
      const sent = event(state, failure ? 'payout.failed' : 'payout.paid', paid, account);
      return { status: await deliverEvent(state, sent), event: sent };
    },
    expireAccountLinks: () => {
      for (const link of state.links.values()) link.expires = 0;
    },
    failNext: (times = 10) => {
      state.failures = times;
    },
    close: () => closeServer(server),
  };
}
