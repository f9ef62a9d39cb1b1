// The fake Stripe's request checks (fake-stripe.ts): the parameters each call takes and the invalid_request_error
// Stripe answers for a missing or malformed one, as its API reference documents them.

export function nested(form: Record<string, string>, prefix: string): Record<string, string> {
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
export function transferError(
  form: Record<string, string>,
  accounts: Set<string>,
  created: Map<string, Record<string, unknown>>,
): StripeError | null {
  const unknown = Object.keys(form).find((key) => !TRANSFER_PARAMS.test(key));
  if (unknown) return invalid(`Received unknown parameter: ${unknown}`, unknown, 'parameter_unknown');
  for (const key of ['amount', 'currency', 'destination'] as const) {
    if (form[key] === undefined) return invalid(`Missing required param: ${key}.`, key, 'parameter_missing');
  }
  if (!/^[1-9]\d*$/.test(form.amount ?? ''))
    return invalid('Invalid positive integer', 'amount', 'parameter_invalid_integer');
  if (!/^[a-z]{3}$/.test(form.currency ?? ''))
    return invalid(`Invalid currency: ${form.currency}.`, 'currency', 'parameter_invalid_string_empty');
  const account = created.get(form.destination ?? '');
  if (!accounts.has(form.destination ?? '') && !account)
    return invalid(`No such destination: '${form.destination}'`, 'destination', 'resource_missing');
  if (account && (account.capabilities as Record<string, string>).transfers !== 'active')
    return invalid(
      'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
      'destination',
      'insufficient_capabilities_for_transfer',
    );
  if (form.source_type !== undefined && !['bank_account', 'card', 'fpx'].includes(form.source_type))
    return invalid('Invalid source_type', 'source_type', 'parameter_invalid_string_empty');
  return null;
}

const ACCOUNT_PARAMS =
  /^(type|country|email|business_type|default_currency|capabilities\[(transfers|card_payments)\]\[requested\]|metadata\[[^\]]+\]|controller\[[a-z_]+\](\[[a-z_]+\])?|business_profile\[[a-z_]+\]|tos_acceptance\[service_agreement\]|expand\[\d*\])$/;

/** POST /v1/accounts as Stripe validates it. */
export function accountError(form: Record<string, string>): StripeError | null {
  const unknown = Object.keys(form).find((key) => !ACCOUNT_PARAMS.test(key));
  if (unknown) return invalid(`Received unknown parameter: ${unknown}`, unknown, 'parameter_unknown');
  if (form.type === undefined && form['controller[stripe_dashboard][type]'] === undefined)
    return invalid('Missing required param: type.', 'type', 'parameter_missing');
  if (form.type !== undefined && !['custom', 'express', 'standard'].includes(form.type))
    return invalid(
      'Invalid type: must be one of custom, express, or standard',
      'type',
      'parameter_invalid_string_empty',
    );
  if (form.country !== undefined && !/^[A-Z]{2}$/.test(form.country))
    return invalid(
      `Country '${form.country}' is unknown. Try using a 2-character alpha country code instead, such as 'US', 'EG', or 'GB'. A full list of country codes is available at https://stripe.com/docs/api/country_specs`,
      'country',
      'country_unsupported',
    );
  if (form.email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email))
    return invalid(`Invalid email address: ${form.email}`, 'email', 'email_invalid');
  for (const cap of ['transfers', 'card_payments']) {
    const value = form[`capabilities[${cap}][requested]`];
    if (value !== undefined && value !== 'true' && value !== 'false')
      return invalid(`Invalid boolean: ${value}`, `capabilities[${cap}][requested]`, 'parameter_invalid_boolean');
  }
  if (
    form.type === 'express' &&
    form['capabilities[transfers][requested]'] !== 'true' &&
    form['capabilities[card_payments][requested]'] !== 'true'
  )
    return invalid(
      'You must request at least one capability for an Express account, e.g. capabilities[transfers][requested]=true.',
      'capabilities',
      'parameter_missing',
    );
  return null;
}

const LINK_PARAMS = /^(account|refresh_url|return_url|type|collect|collection_options\[[a-z_]+\]|expand\[\d*\])$/;

export function linkError(form: Record<string, string>, accounts: Map<string, unknown>): StripeError | null {
  const unknown = Object.keys(form).find((key) => !LINK_PARAMS.test(key));
  if (unknown) return invalid(`Received unknown parameter: ${unknown}`, unknown, 'parameter_unknown');
  for (const key of ['account', 'type'] as const) {
    if (form[key] === undefined) return invalid(`Missing required param: ${key}.`, key, 'parameter_missing');
  }
  if (!['account_onboarding', 'account_update'].includes(form.type ?? ''))
    return invalid(
      'Invalid type: must be one of account_onboarding or account_update',
      'type',
      'parameter_invalid_string_empty',
    );
  for (const key of ['refresh_url', 'return_url'] as const) {
    const value = form[key];
    if (value === undefined) return invalid(`Missing required param: ${key}.`, key, 'parameter_missing');
    if (!/^https?:\/\/[^\s]+$/.test(value)) return invalid('Not a valid URL', key, 'url_invalid');
  }
  if (!accounts.has(form.account ?? ''))
    return invalid(`No such account: '${form.account}'`, 'account', 'resource_missing');
  return null;
}

export const REVERSAL_PARAMS = /^(amount|description|refund_application_fee|metadata\[[^\]]+\]|expand\[\d*\])$/;

export interface StripeError {
  status: number;
  body: { error: { type: string; message: string; param?: string; code?: string } };
}

export function invalid(message: string, param: string, code: string): StripeError {
  return { status: 400, body: { error: { type: 'invalid_request_error', message, param, code } } };
}
