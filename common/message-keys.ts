// Messages keyed by code. Every catalogue message (common/messages.ts) has a key, "<group>.<name>"; a message
// with values also has named parameters. English is built by the catalogue; other languages translate the key
// with the parameters, never by reading the English back. The server sends the key and parameters with each
// error (`messageKey`, `messageParams`); a text the browser built itself is looked up where it was made.

type MessageParams = Record<string, string | number>;

export interface KeyedMessage {
  key: string;
  params?: MessageParams;
}

/** A catalogue message with values: the names of its parameters, in order, for translations. */
export type ParameterisedMessage<A extends unknown[]> = ((...args: A) => string) & { readonly paramNames: string[] };

/** Declares a message with values; `names` name the arguments in order (translations use `{{name}}`). */
export function withParams<A extends unknown[]>(
  names: { [I in keyof A]: string },
  build: (...args: A) => string,
): ParameterisedMessage<A> {
  return Object.assign(build, { paramNames: names as string[] });
}

const staticKeys = new Map<string, KeyedMessage>();
// Texts built with values. The first ones (those built as modules load, such as validation messages kept in
// schemas) stay; later ones are kept newest-used last and bounded, since a text may carry a user's input.
const firstBuilt = new Map<string, KeyedMessage>();
const recentBuilt = new Map<string, KeyedMessage>();
const FIRST_LIMIT = 1000;
const RECENT_LIMIT = 5000;

function remember(text: string, keyed: KeyedMessage): void {
  if (firstBuilt.has(text)) return;
  if (firstBuilt.size < FIRST_LIMIT) {
    firstBuilt.set(text, keyed);
    return;
  }
  recentBuilt.delete(text);
  recentBuilt.set(text, keyed);
  if (recentBuilt.size > RECENT_LIMIT) {
    const oldest = recentBuilt.keys().next().value;
    if (oldest !== undefined) recentBuilt.delete(oldest);
  }
}

/**
 * Gives every message of a catalogue its key: plain texts are registered once, messages with values record the
 * key and parameters of each text they build. The catalogue keeps its shape and types.
 */
export function keyedCatalogue<C extends Record<string, Record<string, unknown>>>(catalogue: C): C {
  const keyed: Record<string, Record<string, unknown>> = {};
  for (const [group, entries] of Object.entries(catalogue)) {
    keyed[group] = {};
    for (const [name, value] of Object.entries(entries)) {
      const key = `${group}.${name}`;
      if (typeof value === 'string') {
        if (!staticKeys.has(value)) staticKeys.set(value, { key });
        keyed[group][name] = value;
      } else if (typeof value === 'function') {
        const names = (value as { paramNames?: string[] }).paramNames ?? [];
        const build = value as (...args: unknown[]) => string;
        const keyedBuild = (...args: unknown[]) => {
          const text = build(...args);
          const params: MessageParams = {};
          names.forEach((param, i) => {
            const arg = args[i];
            if (typeof arg === 'string' || typeof arg === 'number') params[param] = arg;
            else if (Array.isArray(arg)) params[param] = arg.join(', ');
          });
          remember(text, { key, params });
          return text;
        };
        keyed[group][name] = Object.assign(keyedBuild, { paramNames: names });
      } else {
        keyed[group][name] = value;
      }
    }
  }
  return keyed as C;
}

/** The key (and parameters) of a catalogue text, when it is one; undefined for any other text. */
export function messageKeyOf(text: string): KeyedMessage | undefined {
  const recent = recentBuilt.get(text);
  if (recent) {
    recentBuilt.delete(text);
    recentBuilt.set(text, recent);
    return recent;
  }
  return firstBuilt.get(text) ?? staticKeys.get(text);
}

/** Records the key the server sent with a text, so the page translates it wherever the text is shown. */
export function rememberMessageKey(text: string, keyed: KeyedMessage): void {
  if (messageKeyOf(text)?.key === keyed.key) return;
  remember(text, keyed);
}
