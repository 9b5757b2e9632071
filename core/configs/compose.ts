import { toPointer } from './issues.js';
import { ownMember } from '../own-member.js';

/**
 * One layer of a composition: its content and how the answer names it (a config or overlay id, `base`,
 * `overlays[1]`).
 */
export interface Layer {
  ref: string;
  content: Record<string, unknown>;
}

/** Something a layer removed and no later layer gave back: a member (`null`), or a named table (`remove: true`). */
export interface Removal {
  /** Where the member would be in the composed config; for a table, the list it was in (`/tables`). */
  pointer: string;
  /** The table's name, for a table. */
  name?: string;
  layer: string;
}

export interface Composition {
  config: Record<string, unknown>;
  /** For every leaf of the composed config (a list of scalars is one leaf), by JSON pointer: the layer that set it. */
  sources: Record<string, string>;
  /** What layers removed and is absent from the composed config, a parent's before its children's. */
  removed: Removal[];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
type Path = (string | number)[];

/**
 * Applies the layers in order, the first being the base. The rules: maps merge deeply; lists of
 * objects with a `name` (the tables) merge item by item by name, new names appended in order, and an
 * item `{ name, remove: true }` removes the item of that name; any other list, like any scalar, is
 * replaced whole; `null` removes the member.
 */
export function compose(layers: readonly Layer[]): Composition {
  const config: JsonObject = {};
  const origins = new Origins();
  for (const layer of layers) mergeMap(config, structuredClone(layer.content) as JsonObject, layer.ref, origins);
  return { config, ...origins.describe(config) };
}

/**
 * Members are read as own data only: a name like `toString` or `constructor` is just a name here. A
 * member named `__proto__` (refused by the API's body and YAML parsers, but possibly in a document
 * saved earlier) is passed over: assigning it would replace the target's prototype.
 */
function mergeMap(target: JsonObject, patch: JsonObject, ref: string, origins: Origins): void {
  for (const [key, value] of Object.entries(patch)) {
    if (key === '__proto__') continue;
    const existing = ownMember(target, key);
    if (value === null) {
      if (existing !== undefined) {
        delete target[key];
        origins.removed(target, key, ref);
      }
    } else if (isNamedList(value) && (existing === undefined || isNamedList(existing) || isEmptyList(existing))) {
      mergeNamedList(target, key, value, ref, origins);
    } else if (isObject(value)) {
      if (!isObject(existing)) target[key] = {};
      origins.forget(target, key);
      mergeMap(target[key] as JsonObject, value, ref, origins);
    } else {
      target[key] = value;
      origins.set(target, key, ref);
    }
  }
}

function mergeNamedList(parent: JsonObject, key: string, patch: JsonObject[], ref: string, origins: Origins): void {
  for (const { name, remove, ...members } of patch) {
    const list = parent[key] as JsonObject[] | undefined;
    const index = list?.findIndex((item) => item.name === name) ?? -1;
    if (remove === true) {
      if (index === -1) continue;
      list!.splice(index, 1);
      origins.removed(list!, name as string, ref);
      continue;
    }
    // An emptied list was one leaf; its items are attributed one by one from now on.
    origins.forget(parent, key);
    const items = (parent[key] ??= []) as JsonObject[];
    let item = items[index];
    if (!item) {
      item = { name };
      items.push(item);
      origins.set(item, 'name', ref);
      origins.forget(items, name as string);
    }
    mergeMap(item, members, ref, origins);
  }
}

/**
 * Which layer set each leaf and removed each absent member, kept beside the object or list that holds
 * it rather than by pointer: a table keeps its attributions when a table before it is removed.
 */
class Origins {
  /** Object → member → the layer that set it (a leaf). */
  private readonly setBy = new WeakMap<object, Map<string, string>>();
  /** Object → member, or list → table name → the layer that removed it. */
  private readonly removedBy = new WeakMap<object, Map<string, string>>();

  set(holder: object, member: string, ref: string): void {
    this.forget(holder, member);
    entry(this.setBy, holder).set(member, ref);
  }

  removed(holder: object, member: string, ref: string): void {
    this.forget(holder, member);
    entry(this.removedBy, holder).set(member, ref);
  }

  /** Neither a leaf nor removed any more: a map or a list stands there now, or it was given back. */
  forget(holder: object, member: string): void {
    this.setBy.get(holder)?.delete(member);
    this.removedBy.get(holder)?.delete(member);
  }

  /**
   * The attributions of the final document, by pointer: sources in document order, removals a parent's
   * before its children's.
   */
  describe(config: JsonObject): Omit<Composition, 'config'> {
    const sources: Record<string, string> = {};
    const removed: Removal[] = [];
    const walk = (value: Json, path: Path) => {
      if (Array.isArray(value)) {
        for (const [name, layer] of this.removedBy.get(value) ?? [])
          removed.push({ pointer: toPointer(path), name, layer });
        value.forEach((item, index) => walk(item, [...path, index]));
      } else if (isObject(value)) {
        for (const [key, layer] of this.removedBy.get(value) ?? [])
          removed.push({ pointer: toPointer([...path, key]), layer });
        const leaves = this.setBy.get(value);
        for (const [key, member] of Object.entries(value)) {
          const layer = leaves?.get(key);
          if (layer !== undefined) sources[toPointer([...path, key])] = layer;
          else walk(member, [...path, key]);
        }
      }
    };
    walk(config, []);
    return { sources, removed };
  }
}

function entry(map: WeakMap<object, Map<string, string>>, holder: object): Map<string, string> {
  let members = map.get(holder);
  if (!members) map.set(holder, (members = new Map()));
  return members;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isEmptyList = (value: unknown): boolean => Array.isArray(value) && value.length === 0;

/** A non-empty list of objects with names; an empty list is replaced like any other list. */
function isNamedList(value: unknown): value is JsonObject[] {
  return (
    Array.isArray(value) && value.length > 0 && value.every((item) => isObject(item) && typeof item.name === 'string')
  );
}
