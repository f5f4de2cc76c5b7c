import { isPlainObject } from '../json/jsonValue.js';
import { valueAtPointer } from '../tools/schema/schemaPointer.js';
import { labelOf, METHODS, operationsOf, type HttpMethod, type Operation } from './operations.js';

const isMethod = (key: string | undefined): key is HttpMethod => (METHODS as readonly string[]).includes(key ?? '');

/**
 * The operations of a document as it was given (before the parser sees it), for selecting: a path
 * item that is a local `$ref` is read where it points.
 */
export function listedOperations(raw: Record<string, unknown>): Operation[] {
  return operationsOf(raw, (item) => {
    let current = item;
    for (let hops = 0; hops < 10 && isPlainObject(current) && typeof current.$ref === 'string'; hops++) {
      const tokens = refTokens(current.$ref);
      current = tokens === undefined ? undefined : valueAtPointer(raw, tokens);
    }
    return current;
  });
}

/**
 * The part of the document the selected operations (by label, `GET /pets`) reach: the document's own
 * fields (`info`, `servers`, `security`, `tags`, ...), every path item without the operations not
 * selected, `components.securitySchemes` (named by `security`, not referenced), and whatever a `$ref`
 * in these leads to, transitively (a component, an operation, a webhook, an `x-` field). The rest (the
 * operations not selected, the components and webhooks nothing selected refers to) is left out, so the
 * parser neither dereferences nor validates it. The whole document is given when leaving parts out
 * could change what a `$ref` means: where the parser reads `$id`s (3.1, or a document with its own `$id`
 * or `$schema`), a `$id` or `$schema` in what is reached (a base of its own for the references below
 * it); a local `$ref` read here differently from the parser (it points to nothing here, or through a
 * `$ref`). The caller gives the whole document again if the parser cannot follow a `$ref` of the part.
 */
export function selectedPart(raw: Record<string, unknown>, selected: ReadonlySet<string>): Record<string, unknown> {
  const { paths, components, webhooks } = raw;
  if (!isPlainObject(paths) || !isMapOrAbsent(components) || !isMapOrAbsent(webhooks)) return raw;
  if (hasIdKeyword(raw)) return raw;
  const readsIds = typeof raw.openapi === 'string' && raw.openapi.startsWith('3.1');
  if (Object.keys(paths).length === 0) return raw;
  const kept = new Kept(raw);
  for (const key of Object.keys(raw))
    if (key !== 'paths' && key !== 'components' && key !== 'webhooks' && !key.startsWith('x-')) kept.field(key);
  for (const [path, item] of Object.entries(paths)) {
    if (!isPlainObject(item) || typeof item.$ref === 'string') kept.pathItem(path);
    else {
      kept.pathItemWithout(path);
      for (const method of METHODS) if (selected.has(labelOf(method, path))) kept.operation(path, method);
    }
  }
  if (isPlainObject(components) && components.securitySchemes !== undefined) kept.componentType('securitySchemes');

  const seen = new Set<object>();
  while (kept.pending.length > 0) {
    const value = kept.pending.pop();
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    const node = value as Record<string, unknown>;
    if (readsIds && hasIdKeyword(node)) return raw;
    for (const member of Object.values(node)) kept.pending.push(member);
    if (typeof node.$ref !== 'string' || !node.$ref.startsWith('#')) continue;
    const tokens = refTokens(node.$ref);
    if (tokens === undefined) {
      if (node.$ref === '#' || node.$ref.startsWith('#/')) return raw;
      continue; // '#name', an anchor: the parser does not follow it
    }
    if (!kept.reach(tokens)) return raw;
  }
  return kept.document();
}

/** What is kept of a document, and the values kept whose `$ref`s are still to be followed. */
class Kept {
  readonly pending: unknown[] = [];
  readonly #fields = new Set<string>();
  readonly #paths: Record<string, Record<string, unknown>> = {};
  readonly #components = new Map<string, Record<string, unknown> | 'whole'>();
  readonly #webhooks: Record<string, unknown> = {};

  constructor(readonly raw: Record<string, unknown>) {}

  /** Keeps what the pointer `tokens` leads to (and where it sits); false when it is not kept by this reading. */
  reach(tokens: string[]): boolean {
    if (valueAtPointer(this.raw, tokens) === undefined) return false;
    const [top, name, entry] = tokens;
    if (top === undefined) return false;
    if (top !== 'paths' && top !== 'components' && top !== 'webhooks') this.field(top);
    else if (name === undefined) return false;
    else if (top === 'paths') {
      if (isMethod(entry)) this.operation(name, entry);
      else this.pathItem(name);
    } else if (top === 'components') {
      if (entry === undefined) this.componentType(name);
      else this.component(name, entry);
    } else if (!Object.hasOwn(this.#webhooks, name)) {
      this.#webhooks[name] = this.#given('webhooks', name);
      this.#keep(this.#webhooks[name]);
    }
    return true;
  }

  field(key: string): void {
    if (this.#fields.has(key)) return;
    this.#fields.add(key);
    this.#keep(this.raw[key]);
  }

  pathItem(path: string): void {
    const item = this.#given('paths', path);
    if (this.#paths[path] === item) return;
    this.#paths[path] = item as Record<string, unknown>;
    this.#keep(item);
  }

  /** The path item's own fields (its parameters, servers, ...) without its operations. */
  pathItemWithout(path: string): void {
    const item = this.#given('paths', path) as Record<string, unknown>;
    const fields = Object.fromEntries(Object.entries(item).filter(([key]) => !isMethod(key)));
    this.#paths[path] = fields;
    this.#keep(fields);
  }

  operation(path: string, method: HttpMethod): void {
    const item = this.#paths[path]!;
    if (Object.hasOwn(item, method)) return;
    item[method] = (this.#given('paths', path) as Record<string, unknown>)[method];
    this.#keep(item[method]);
  }

  componentType(type: string): void {
    if (this.#components.get(type) === 'whole') return;
    this.#components.set(type, 'whole');
    this.#keep(this.#given('components', type));
  }

  component(type: string, name: string): void {
    const entries = this.#components.get(type) ?? {};
    if (entries === 'whole' || Object.hasOwn(entries, name)) return;
    this.#components.set(type, entries);
    entries[name] = (this.#given('components', type) as Record<string, unknown>)[name];
    this.#keep(entries[name]);
  }

  /** The document kept, its fields in the order of the one given. */
  document(): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(this.raw))
      if (key === 'paths') result.paths = this.#inOrder(this.#paths, this.raw.paths);
      else if (key === 'components' && this.#components.size > 0) {
        const given = this.raw.components as Record<string, unknown>;
        const types: Record<string, unknown> = {};
        for (const type of Object.keys(given)) {
          const entries = this.#components.get(type);
          if (entries !== undefined)
            types[type] = entries === 'whole' ? given[type] : this.#inOrder(entries, given[type]);
        }
        result.components = types;
      } else if (key === 'webhooks' && Object.keys(this.#webhooks).length > 0)
        result.webhooks = this.#inOrder(this.#webhooks, this.raw.webhooks);
      else if (this.#fields.has(key)) result[key] = this.raw[key];
    return result;
  }

  #given(top: string, name: string): unknown {
    return (this.raw[top] as Record<string, unknown>)[name];
  }

  #keep(value: unknown): void {
    this.pending.push(value);
  }

  #inOrder<T>(entries: Record<string, T>, given: unknown): Record<string, T> {
    return Object.fromEntries(
      Object.keys(given as object)
        .filter((name) => Object.hasOwn(entries, name))
        .map((name) => [name, entries[name]!]),
    );
  }
}

/** `$id` and `$schema` (which may make a draft-04 `id` one) change the base a schema's `$ref`s are read from. */
function hasIdKeyword(node: Record<string, unknown>): boolean {
  return typeof node.$id === 'string' || typeof node.$schema === 'string';
}

function isMapOrAbsent(value: unknown): boolean {
  return value === undefined || isPlainObject(value);
}

/** The tokens of a local JSON-pointer `$ref` (`#`, `#/components/schemas/Pet`), or undefined for any other. */
function refTokens(ref: string): string[] | undefined {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) return undefined;
  try {
    return ref
      .slice(2)
      .split('/')
      .map((token) => decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~'));
  } catch {
    return undefined;
  }
}
