// JSON-schema (as the OpenAPI document states a route's input) → fast-check arbitraries of values that
// satisfy it (fillers) and of values that cannot (the invalid part of a request). A small validator
// checks every "invalid" value, so a generator bug cannot make a valid request look like a product bug.
import fc from 'fast-check';

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  default?: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Strings that break naive handling: NUL, lone surrogates, bidi overrides, ZWJ emoji, combining marks, escapes. */
export const UNICODE_EDGES = [
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF',
  'x\uDBFF',
  '\u202Eevil\u202C',
  '\u200F\u200E',
  '\u{1F469}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}',
  'e\u0301\u0301\u0301\u0301',
  '\uFEFF',
  '\uFFFF',
  '\\u0000',
  '%00',
  '%C0%80',
  '\\xC0\\x80',
  '０１２',
  'ﬀ',
  '\u0430dmin',
];

/** Values of every JSON type, for "wrong type" mutations; each generator keeps those its schema rejects. */
const ANY_JSON: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  42.5,
  '',
  'not-a-number',
  '\u0000',
  [],
  [1, 'a'],
  [[[]]],
  {},
  { nested: { deeper: [null] } },
];

function types(schema: JsonSchema): string[] | undefined {
  if (schema.type === undefined) return undefined;
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Whether `value` satisfies `schema` (the subset of JSON Schema that zod's transform emits). */
export function satisfies(schema: JsonSchema, value: unknown): boolean {
  if (value === null && schema.nullable) return true;
  if (schema.anyOf && !schema.anyOf.some((s) => satisfies(s, value))) return false;
  if (schema.oneOf && !schema.oneOf.some((s) => satisfies(s, value))) return false;
  if (schema.allOf && !schema.allOf.every((s) => satisfies(s, value))) return false;
  if (schema.const !== undefined && value !== schema.const) return false;
  if (schema.enum && !schema.enum.includes(value)) return false;
  const allowed = types(schema);
  if (allowed) {
    const t = typeOf(value);
    const ok = allowed.some((a) => a === t || (a === 'number' && t === 'integer'));
    if (!ok) return false;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return false;
    if (schema.minimum !== undefined && value < schema.minimum) return false;
    if (schema.maximum !== undefined && value > schema.maximum) return false;
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) return false;
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) return false;
  }
  if (typeof value === 'string') {
    // The studio refuses U+0000 in any validated input (PostgreSQL cannot store it): server/platform/http/input-guard.ts.
    if (value.includes('\u0000')) return false;
    if (schema.minLength !== undefined && value.length < schema.minLength) return false;
    // zod counts code points against a maximum, so a string is too long only when those exceed it.
    if (schema.maxLength !== undefined && [...value].length > schema.maxLength) return false;
    if (schema.pattern && !new RegExp(schema.pattern).test(value)) return false;
    if (schema.format === 'uuid' && !UUID.test(value)) return false;
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return false;
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return false;
    const items = schema.items;
    if (items && !value.every((v) => satisfies(items, v))) return false;
  }
  if (typeOf(value) === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in record)) return false;
    for (const [key, sub] of Object.entries(schema.properties ?? {})) {
      if (key in record && !satisfies(sub, record[key])) return false;
    }
    if (schema.additionalProperties === false) {
      for (const key of Object.keys(record)) if (!(key in (schema.properties ?? {}))) return false;
    }
  }
  return true;
}

/** A string of `length` UTF-16 units that is plain ASCII (so trimming or normalising cannot shorten it). */
const filler = (length: number) => 'x'.repeat(length);

/** Values that satisfy `schema`, best effort (used for the parts of a request that are not under test). */
export function validValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches?.length) return fc.oneof(...branches.map((b) => validValue(b, depth)));
  if (schema.allOf?.length) return validValue(schema.allOf[0] as JsonSchema, depth);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const t = types(schema)?.find((x) => x !== 'null');
  switch (t) {
    case 'string': {
      if (schema.format === 'uuid') return fc.uuid({ version: 4 });
      if (schema.pattern) {
        if (schema.pattern === '^\\d{4}-\\d{2}-\\d{2}$') return fc.constant('2030-01-15');
        if (schema.pattern === '^[a-z0-9-]+$') return fc.constant('some-slug');
        return fc.stringMatching(new RegExp(schema.pattern));
      }
      const min = schema.minLength ?? 0;
      const max = Math.max(min, Math.min(schema.maxLength ?? 40, 40));
      return fc.string({ unit: 'grapheme-ascii', minLength: Math.max(min, 1), maxLength: Math.max(max, 1) });
    }
    case 'integer':
    case 'number': {
      const min = Math.max(schema.minimum ?? -1000, -1e6);
      const max = Math.min(schema.maximum ?? 1000, 1e6);
      const lo = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : min;
      const hi = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : max;
      return fc.integer({ min: Math.ceil(lo), max: Math.max(Math.ceil(lo), Math.floor(hi)) });
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const min = schema.minItems ?? 0;
      const max = Math.max(min, Math.min(schema.maxItems ?? 3, 3));
      if (depth > 4) return fc.constant([]);
      return fc.array(validValue(schema.items ?? {}, depth + 1), { minLength: min, maxLength: max });
    }
    case 'object':
      return validObject(schema, depth);
    default:
      return schema.properties ? validObject(schema, depth) : fc.constant('x');
  }
}

function validObject(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  if (depth > 4) return fc.constant({});
  const required = new Set(schema.required ?? []);
  const shape: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, sub] of Object.entries(schema.properties ?? {})) shape[key] = validValue(sub, depth + 1);
  return fc.record(shape, { requiredKeys: [...required].filter((k) => k in shape) });
}

/**
 * Values that do NOT satisfy `schema`, by class: wrong JSON type, out-of-range numbers, strings past
 * maxLength (up to 100 KB) or failing enum/format/pattern through unicode edge cases, bad arrays, objects
 * missing a required key or with one invalid property. `null` when nothing can be invalid (e.g. `{}`).
 */
export function invalidValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> | null {
  const candidates: fc.Arbitrary<unknown>[] = [];
  const wrongTypes = ANY_JSON.filter((v) => !satisfies(schema, v) && !coercibleTo(schema, v));
  if (wrongTypes.length) candidates.push(fc.constantFrom(...wrongTypes));
  const t = types(schema)?.find((x) => x !== 'null');
  const branches = schema.anyOf ?? schema.oneOf;
  if (!branches && !schema.allOf) {
    if (t === 'string' || schema.enum?.every((e) => typeof e === 'string')) candidates.push(...invalidStrings(schema));
    if (t === 'integer' || t === 'number') candidates.push(...invalidNumbers(schema));
    if (t === 'array' && depth < 5) candidates.push(...invalidArrays(schema, depth));
    if ((t === 'object' || schema.properties) && depth < 5) candidates.push(...invalidObjects(schema, depth));
  }
  if (!candidates.length) return null;
  return fc.oneof(...candidates).filter((v) => !satisfies(schema, v));
}

/** zod's coercions accept some values of another JSON type; keep those out of "wrong type". */
function coercibleTo(schema: JsonSchema, value: unknown): boolean {
  const t = types(schema);
  if (t?.includes('number') || t?.includes('integer')) return Number.isFinite(Number(value));
  return false;
}

function invalidStrings(schema: JsonSchema): fc.Arbitrary<unknown>[] {
  const edge = fc.constantFrom(...UNICODE_EDGES);
  const out: fc.Arbitrary<unknown>[] = [
    fc
      .tuple(
        fc.string({ maxLength: 8 }),
        fc.constantFrom('\u0000', '\u0000\u0000', '\u0000\uD800'),
        fc.string({ maxLength: 8 }),
      )
      .map(([a, nul, b]) => `x${nul}${a}${b}`.slice(0, Math.max(2, schema.maxLength ?? 20))),
  ];
  // Past a field's maxLength, when that fits well under the 12 MB body limit (base64 fields allow ~14 MB).
  if (schema.maxLength !== undefined && schema.maxLength < 1_000_000) {
    const max = schema.maxLength;
    out.push(
      fc.integer({ min: 1, max: 64 }).map((extra) => filler(max + extra)),
      fc.constant(filler(Math.max(max + 1, 100_000))),
      // A ZWJ emoji family is one grapheme but five code points (what zod counts): past maxLength.
      fc.constant('\u{1F469}\u200D\u{1F469}\u200D\u{1F467}'.repeat(Math.ceil((max + 1) / 5))),
    );
  }
  if (schema.minLength !== undefined && schema.minLength > 0) out.push(fc.constant(''));
  if (schema.enum?.length) {
    const options = schema.enum.filter((e): e is string => typeof e === 'string');
    out.push(
      fc
        .tuple(fc.constantFrom(...options), edge, fc.boolean())
        .map(([value, junk, before]) => (before ? junk + value : value + junk)),
      fc.constantFrom(...options).map((v) => `${v.toUpperCase()}\u0301`),
    );
  }
  if (schema.format === 'uuid' || schema.pattern) {
    out.push(
      fc
        .tuple(fc.uuid({ version: 4 }), edge, fc.nat(35))
        .map(([id, junk, at]) => id.slice(0, at) + junk + id.slice(at + 1)),
      fc.uuid({ version: 4 }).map((id) => id.replaceAll('-', '')),
      fc.uuid({ version: 4 }).map((id) => `${id}'; drop table users; --`),
      edge,
    );
  }
  return out;
}

function invalidNumbers(schema: JsonSchema): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [fc.constantFrom('12abc', 'NaN-ish', '--1', { $gt: 0 })];
  if (schema.minimum !== undefined) {
    const min = schema.minimum;
    out.push(fc.constantFrom(min - 1, min - 0.5, -1e308));
  }
  if (schema.maximum !== undefined) {
    const max = schema.maximum;
    out.push(fc.constantFrom(max + 1, 1e308, 2 ** 64));
  }
  if (types(schema)?.includes('integer')) out.push(fc.constantFrom(1.5, 0.000001, -7.25));
  return out;
}

function invalidArrays(schema: JsonSchema, depth: number): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [];
  const item = validValue(schema.items ?? {}, depth + 1);
  if (schema.maxItems !== undefined) {
    const n = schema.maxItems + 1;
    out.push(fc.array(item, { minLength: n, maxLength: n }));
  }
  if (schema.minItems !== undefined && schema.minItems > 0) out.push(fc.constant([]));
  const badItem = schema.items ? invalidValue(schema.items, depth + 1) : null;
  if (badItem) out.push(fc.tuple(fc.array(item, { maxLength: 1 }), badItem).map(([ok, bad]) => [...ok, bad]));
  return out;
}

function invalidObjects(schema: JsonSchema, depth: number): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [];
  const base = validObject(schema, depth);
  const required = (schema.required ?? []).filter((k) => schema.properties?.[k]);
  if (required.length) {
    out.push(
      fc.tuple(base, fc.constantFrom(...required)).map(([obj, key]) => {
        const { [key]: _dropped, ...rest } = obj;
        return rest;
      }),
      // The whole body one level too deep: `{ data: {…} }`.
      base.map((obj) => ({ data: obj })),
    );
  }
  const invalidProps = Object.entries(schema.properties ?? {})
    .map(([key, sub]) => [key, invalidValue(sub, depth + 1)] as const)
    .filter((entry): entry is readonly [string, fc.Arbitrary<unknown>] => entry[1] !== null);
  if (invalidProps.length) {
    out.push(
      fc
        .tuple(base, fc.constantFrom(...invalidProps))
        .chain(([obj, [key, bad]]) => bad.map((value) => ({ ...obj, [key]: value }))),
    );
  }
  if (schema.additionalProperties === false) out.push(base.map((obj) => ({ ...obj, unexpected_field: 1 })));
  return out;
}
