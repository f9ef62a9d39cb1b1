// Builds, for one OpenAPI operation, a fast-check arbitrary of requests that are invalid by construction:
// every other part is filled with valid values, and exactly one part (a path param, a query param, the JSON
// body, or the raw body itself) is generated from the "cannot be valid" classes.
import fc from 'fast-check';
import { invalidValue, type JsonSchema, satisfies, UNICODE_EDGES, validValue } from './property-schema.ts';

interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  path: string;
  summary?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

export interface GeneratedRequest {
  /** Which part is invalid and how, for the failure message. */
  invalid: string;
  url: string;
  contentType?: string;
  payload?: string;
}

/** Routes whose body is not JSON (multipart uploads, a signed raw webhook): any body we make is refused. */
const OPAQUE_BODY = new Set(['POST /api/upload', 'POST /api/users/avatar', 'POST /api/payment/webhook']);

const NOT_JSON = [
  '{',
  '{"a":',
  "{'single':'quotes'}",
  '{"a":1,}',
  '{"value": NaN}',
  '{"value": Infinity}',
  '{"value": undefined}',
  'nul',
  '<xml/>',
  '\u0000',
  '\uFEFF{"bom":true}x',
  '{"__proto__": {"polluted": 1}',
  '[1, 2',
  `{"a":"${'\\ud800'}"`,
];

/** Percent-encodes like encodeURIComponent, but lone surrogates become their (invalid) 3-byte UTF-8 form. */
function encodeLoose(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const isHigh = code >= 0xd800 && code <= 0xdbff;
    const isLow = code >= 0xdc00 && code <= 0xdfff;
    const next = value.charCodeAt(i + 1);
    if (isHigh && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(value.slice(i, i + 2));
      i++;
    } else if (isHigh || isLow) {
      const bytes = [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
      out += bytes.map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(value[i] as string);
    }
  }
  return out;
}

/** Already-encoded path segments that decode to nothing sensible (or do not decode at all). */
const RAW_SEGMENTS = [
  '%',
  '%zz',
  '%ED%A0%80',
  '%C0%80',
  '%00',
  '%FF%FE',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '%E2%80%AE',
];

function pathParamJunk(schema: JsonSchema): fc.Arbitrary<{ raw: string }> {
  const schemaInvalid = invalidValue(schema);
  const strings = fc.oneof(
    fc.constantFrom(...UNICODE_EDGES),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 24 }),
    fc.constant('x'.repeat(Math.max((schema.maxLength ?? 600) + 1, 2000))),
  );
  return fc
    .oneof(
      fc.constantFrom(...RAW_SEGMENTS).map((raw) => ({ raw })),
      strings.map((s) => ({ raw: encodeLoose(s) })),
      ...(schemaInvalid
        ? [schemaInvalid.map((v) => ({ raw: encodeLoose(typeof v === 'string' ? v : JSON.stringify(v)) }))]
        : []),
    )
    .filter(({ raw }) => raw !== '' && raw !== '.' && raw !== '..');
}

/** Query values (wire strings, or a repeated key) that the param's schema rejects after zod's coercion. */
function queryJunk(schema: JsonSchema): fc.Arbitrary<string | string[]> | null {
  const t = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (t === 'integer' || t === 'number') {
    const min = schema.minimum ?? Number.NEGATIVE_INFINITY;
    const max = schema.maximum ?? Number.POSITIVE_INFINITY;
    const candidates = [
      'abc',
      '1e400',
      '-1e400',
      'NaN',
      'Infinity',
      '99999999999999999999999',
      '1.5',
      '12abc',
      '0x',
      '\u0000',
      '\uD800',
    ];
    if (Number.isFinite(min)) candidates.push(String(min - 1));
    if (Number.isFinite(max)) candidates.push(String(max + 1));
    const rejected = candidates.filter((c) => {
      const n = Number(c);
      return !Number.isFinite(n) || n < min || n > max || (t === 'integer' && !Number.isInteger(n));
    });
    return fc.oneof(fc.constantFrom(...rejected), fc.constant<string[]>(['1', '2']));
  }
  const invalid = invalidValue(schema);
  const strings = invalid?.filter((v): v is string => typeof v === 'string');
  const repeated = fc.constant<string[]>(['a', 'b']);
  return strings ? fc.oneof(strings, repeated) : repeated;
}

function queryString(entries: [string, string | string[]][]): string {
  const parts: string[] = [];
  for (const [key, value] of entries) {
    for (const v of Array.isArray(value) ? value : [value]) parts.push(`${encodeURIComponent(key)}=${encodeLoose(v)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_m, name: string) => values[name] ?? '');
}

/** Valid wire strings for a path/query param (a nonexistent uuid when it is an id). */
function validParam(schema: JsonSchema): fc.Arbitrary<string> {
  if (!schema.enum && !schema.format && !schema.pattern && schema.type === 'string') {
    return fc.uuid({ version: 4 }).map((id) => id.slice(0, Math.min(36, schema.maxLength ?? 36)));
  }
  return validValue(schema).map((v) => String(v));
}

/** null when the operation has nothing a caller can get wrong (e.g. GET /api/auth/me). */
export function invalidRequests(op: Operation): fc.Arbitrary<GeneratedRequest> | null {
  const key = `${op.method} ${op.path}`;
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const bodySchema = op.requestBody?.content['application/json']?.schema;
  const hasBody = op.method !== 'GET' && op.method !== 'HEAD';

  const validPath = fc.record(
    Object.fromEntries(pathParams.map((p) => [p.name, validParam(p.schema).map(encodeLoose)])),
  );
  const validQuery = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, validParam(p.schema)])), {
    requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name),
  });
  const validBody = bodySchema ? validValue(bodySchema).map((v) => JSON.stringify(v)) : fc.constant(undefined);

  type Parts = {
    path: Record<string, string>;
    query: Record<string, string | string[]>;
    body?: string;
    contentType?: string;
  };
  const build = (invalid: string, parts: fc.Arbitrary<Parts>): fc.Arbitrary<GeneratedRequest> =>
    parts.map((p) => ({
      invalid,
      url: fillPath(op.path, p.path) + queryString(Object.entries(p.query)),
      payload: p.body,
      contentType: p.body === undefined ? undefined : (p.contentType ?? 'application/json'),
    }));
  const valid = fc.record({ path: validPath, query: validQuery, body: validBody });
  const classes: fc.Arbitrary<GeneratedRequest>[] = [];
  // Weighted up, so the route's own body handling gets as many runs as the generic classes together.
  const opaque: fc.Arbitrary<GeneratedRequest>[] = [];

  for (const param of pathParams) {
    classes.push(
      build(
        `path param ${param.name}`,
        fc
          .tuple(valid, pathParamJunk(param.schema))
          .map(([v, junk]) => ({ ...v, path: { ...v.path, [param.name]: junk.raw } })),
      ),
    );
  }
  for (const param of queryParams) {
    const junk = queryJunk(param.schema);
    if (junk) {
      classes.push(
        build(
          `query param ${param.name}`,
          fc.tuple(valid, junk).map(([v, value]) => ({ ...v, query: { ...v.query, [param.name]: value } })),
        ),
      );
    }
    if (param.required) {
      classes.push(
        build(
          `query param ${param.name} missing`,
          valid.map((v) => {
            const { [param.name]: _dropped, ...rest } = v.query;
            return { ...v, query: rest };
          }),
        ),
      );
    }
  }
  if (bodySchema) {
    const bad = invalidValue(bodySchema);
    if (bad) {
      classes.push(
        build(
          'JSON body',
          fc.tuple(valid, bad, fc.boolean()).map(([v, body, infinity]) => ({
            ...v,
            // JSON.parse turns 1e999 into Infinity: a number no schema accepts.
            body: JSON.stringify(body).replace(/"(12abc|NaN-ish)"/, infinity ? '1e999' : '"$1"'),
          })),
        ),
      );
    }
    // Only those the body schema refuses (a nullish body, as DELETE /api/social/accounts takes, accepts `null`).
    const notObjects = ['[]', 'null', '0', '"text"', 'true', `${'['.repeat(3000)}${']'.repeat(3000)}`].filter(
      (text) => !satisfies(bodySchema, JSON.parse(text)),
    );
    classes.push(
      build(
        'body not an object',
        fc.tuple(valid, fc.constantFrom(...notObjects)).map(([v, body]) => ({ ...v, body })),
      ),
      build(
        'body as text/plain',
        fc.tuple(valid, validBody).map(([v, body]) => ({ ...v, body: body ?? 'x', contentType: 'text/plain' })),
      ),
    );
  }
  if (hasBody) {
    classes.push(
      build(
        'body not JSON',
        fc.tuple(valid, fc.constantFrom(...NOT_JSON)).map(([v, body]) => ({ ...v, body })),
      ),
      build(
        'unsupported content-type',
        fc
          .tuple(valid, fc.constantFrom('application/xml', 'application/x-msgpack', 'image/png'))
          .map(([v, contentType]) => ({ ...v, body: '<a>1</a>', contentType })),
      ),
      build(
        'empty JSON body',
        valid.map((v) => ({ ...v, body: '' })),
      ),
    );
  }
  if (OPAQUE_BODY.has(key)) {
    opaque.push(
      build(
        'JSON or garbage instead of multipart/raw',
        fc
          .tuple(
            valid,
            fc.oneof(
              fc
                .jsonValue({ maxDepth: 2 })
                .map((v) => ({ body: JSON.stringify(v) ?? 'null', contentType: 'application/json' })),
              fc
                .string({ unit: 'binary', maxLength: 200 })
                .map((body) => ({ body, contentType: 'multipart/form-data' })),
              fc.constant({ body: '--x\r\n\r\n--x--', contentType: 'multipart/form-data; boundary=y' }),
              fc.constant({ body: 'garbage', contentType: 'text/plain' }),
              wellFormedJunkForm(),
            ),
          )
          .map(([v, b]) => ({ ...v, ...b })),
      ),
    );
  }
  if (!classes.length && !opaque.length) return null;
  return fc.oneof(
    ...classes.map((arbitrary) => ({ arbitrary, weight: 1 })),
    ...opaque.map((arbitrary) => ({ arbitrary, weight: classes.length })),
  );
}

/**
 * A well-formed multipart body whose file is not media (bytes no sniffer accepts), or whose fields are
 * nonsense (a NUL or 100 KB `type`, an unknown field only, a file under the wrong field name).
 */
function wellFormedJunkForm(): fc.Arbitrary<{ body: string; contentType: string }> {
  const boundary = 'propertyboundary';
  const part = (headers: string, content: string) => `--${boundary}\r\n${headers}\r\n\r\n${content}\r\n`;
  const file = (field: string, name: string, bytes: string) =>
    part(`Content-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: image/png`, bytes);
  const notMedia = fc.string({ unit: 'binary-ascii', maxLength: 300 }).map((v) => `GARBAGE${v}`);
  return fc
    .oneof(
      notMedia.map((bytes) => file('file', 'x.png', bytes)),
      notMedia.map(
        (bytes) => file('file', 'a\u0000b.png', bytes) + part('Content-Disposition: form-data; name="type"', '\u0000'),
      ),
      notMedia.map(
        (bytes) =>
          file('file', 'x.png', bytes) + part('Content-Disposition: form-data; name="type"', 'x'.repeat(100_000)),
      ),
      fc.constant(part('Content-Disposition: form-data; name="unknown"', 'value')),
      notMedia.map((bytes) => file('not_the_file_field', 'x.png', bytes)),
    )
    .map((parts) => ({
      body: `${parts}--${boundary}--\r\n`,
      contentType: `multipart/form-data; boundary=${boundary}`,
    }));
}

/** A string field or param that takes any text: no enum, format or pattern. */
function isFreeText(schema: JsonSchema): boolean {
  const t = Array.isArray(schema.type) ? schema.type : [schema.type];
  return t.includes('string') && !schema.enum && !schema.format && !schema.pattern;
}

/** Edge-case text that fits the field's length limits (NUL left out: it is refused everywhere). */
function edgeText(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 100_000;
  const edges = UNICODE_EDGES.filter((e) => !e.includes('\u0000'));
  return fc
    .oneof(
      fc.constantFrom(...edges),
      fc.array(fc.constantFrom(...edges), { minLength: 1, maxLength: 6 }).map((parts) => parts.join('')),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).map((v) => v.replaceAll('\u0000', '')),
      fc.constant('\u{1F469}\u200D\u{1F469}\u200D\u{1F467}'.repeat(Math.floor(Math.min(max, 100_000) / 5))),
    )
    .map((v) => (v.length < min ? v + 'x'.repeat(min - v.length) : v))
    .filter((v) => [...v].length <= max && v.trim().length >= min);
}

/** The extremes a wide numeric range still allows (past int4, the safe-integer bounds), or null. */
function extremeNumber(schema: JsonSchema): fc.Arbitrary<number> | null {
  const t = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (schema.enum || !(t.includes('integer') || t.includes('number'))) return null;
  const candidates = [schema.minimum, schema.maximum, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 - 1, 0, -1]
    .filter((n): n is number => n !== undefined)
    .filter((n) => satisfies(schema, n));
  return candidates.length ? fc.constantFrom(...candidates) : null;
}

/**
 * Requests valid in shape whose one free-text field or param holds edge-case unicode (lone surrogates,
 * bidi overrides, ZWJ emoji, combining marks, escapes, up to 100 KB): accepted or refused, never a 5xx.
 */
export function edgeTextRequests(op: Operation): fc.Arbitrary<GeneratedRequest> | null {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const bodySchema = op.requestBody?.content['application/json']?.schema;
  const validPath = fc.record(
    Object.fromEntries(pathParams.map((p) => [p.name, validParam(p.schema).map(encodeLoose)])),
  );
  const validQuery = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, validParam(p.schema)])), {
    requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name),
  });
  const bodyFields = Object.entries(bodySchema?.properties ?? {}).flatMap(([name, s]) => {
    const value = isFreeText(s) ? edgeText(s) : extremeNumber(s);
    return value ? [[name, value] as const] : [];
  });
  const classes: fc.Arbitrary<GeneratedRequest>[] = [];
  const body = bodySchema ? validValue(bodySchema) : fc.constant(undefined);
  const build = (invalid: string, parts: fc.Arbitrary<[Record<string, string>, Record<string, string>, unknown]>) =>
    parts.map(([path, query, payload]) => ({
      invalid,
      url: fillPath(op.path, path) + queryString(Object.entries(query)),
      payload: payload === undefined ? undefined : JSON.stringify(payload),
      contentType: payload === undefined ? undefined : 'application/json',
    }));
  for (const param of queryParams) {
    const value = isFreeText(param.schema) ? edgeText(param.schema) : extremeNumber(param.schema)?.map(String);
    if (!value) continue;
    classes.push(
      build(
        `query param ${param.name}`,
        fc
          .tuple(validPath, validQuery, body, value)
          .map(([path, query, payload, text]) => [path, { ...query, [param.name]: text }, payload]),
      ),
    );
  }
  for (const [name, value] of bodyFields) {
    classes.push(
      build(
        `body field ${name}`,
        fc
          .tuple(validPath, validQuery, body as fc.Arbitrary<Record<string, unknown>>, value as fc.Arbitrary<unknown>)
          .map(([path, query, payload, text]) => [path, query, { ...payload, [name]: text }]),
      ),
    );
  }
  return classes.length ? fc.oneof(...classes) : null;
}

/** A JSON body nested `depth` objects deep (the recursive guard overflowed the stack near 5,000). */
const deepJson = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/**
 * Odd JSON every JSON route must refuse with a 400: a body nested 5,000 deep, and a valid-shaped body whose
 * one free-text field holds a lone UTF-16 surrogate (PostgreSQL refuses it in jsonb: it failed ten routes
 * with a 500). Null for a route without a JSON body.
 */
export function oddJsonRequests(op: Operation): fc.Arbitrary<GeneratedRequest> | null {
  const key = `${op.method} ${op.path}`;
  const bodySchema = op.requestBody?.content['application/json']?.schema;
  if (!bodySchema || OPAQUE_BODY.has(key)) return null;
  const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path');
  const validPath = fc.record(
    Object.fromEntries(pathParams.map((p) => [p.name, validParam(p.schema).map(encodeLoose)])),
  );
  const json = (invalid: string, body: fc.Arbitrary<string>) =>
    fc.tuple(validPath, body).map(([path, payload]) => ({
      invalid,
      url: fillPath(op.path, path),
      payload,
      contentType: 'application/json',
    }));
  const classes = [json('a body nested 5,000 deep', fc.constant(deepJson(5000)))];
  const body = validValue(bodySchema) as fc.Arbitrary<Record<string, unknown>>;
  for (const [name, schema] of Object.entries(bodySchema.properties ?? {})) {
    if (!isFreeText(schema) || (schema.maxLength ?? 2) < 2) continue;
    const surrogate = fc.constantFrom('\uD800', 'x\uDBFF', '\uDC00y', 'a\uDFFFb');
    classes.push(
      json(
        `a lone surrogate in ${name}`,
        fc.tuple(body, surrogate).map(([payload, text]) => JSON.stringify({ ...payload, [name]: text })),
      ),
    );
  }
  return fc.oneof(...classes);
}
