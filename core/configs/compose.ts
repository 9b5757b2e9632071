import { toPointer } from './issues.js';

/** One layer of a composition: its content and how the answer names it (a config or overlay id, `base`, `overlays[1]`). */
export interface Layer {
  ref: string;
  content: Record<string, unknown>;
}

export interface Composition {
  config: Record<string, unknown>;
  /** For every leaf of the composed config (a list of scalars counts as one leaf), by JSON pointer: the layer that set it. */
  sources: Record<string, string>;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
type Path = (string | number)[];

/**
 * Applies the layers in order, the first being the base. The rules: maps merge deeply; lists of
 * objects with a `name` (the tables) merge item by item by name, new names appended in order; any
 * other list, like any scalar, is replaced whole; `null` removes the member.
 */
export function compose(layers: readonly Layer[]): Composition {
  const config: JsonObject = {};
  const sources = new Map<string, string>();
  for (const layer of layers) mergeMap(config, structuredClone(layer.content) as JsonObject, layer.ref, [], sources);
  return { config, sources: leafSources(config, sources) };
}

function mergeMap(target: JsonObject, patch: JsonObject, ref: string, path: Path, sources: Map<string, string>): void {
  for (const [key, value] of Object.entries(patch)) {
    const at = [...path, key];
    if (value === null) {
      delete target[key];
      forget(sources, at);
    } else if (isNamedList(value) && (target[key] === undefined || isNamedList(target[key]) || isEmptyList(target[key]))) {
      target[key] ??= [];
      sources.delete(toPointer(at)); // an emptied list was one leaf; its items are attributed one by one now
      mergeNamedList(target[key] as JsonObject[], value, ref, at, sources);
    } else if (isObject(value)) {
      if (!isObject(target[key])) {
        forget(sources, at);
        target[key] = {};
      }
      mergeMap(target[key] as JsonObject, value, ref, at, sources);
    } else {
      forget(sources, at);
      target[key] = value;
      sources.set(toPointer(at), ref);
    }
  }
}

function mergeNamedList(target: JsonObject[], patch: JsonObject[], ref: string, path: Path, sources: Map<string, string>): void {
  for (const item of patch) {
    let index = target.findIndex((existing) => existing.name === item.name);
    if (index === -1) {
      index = target.push({ name: item.name }) - 1;
      sources.set(toPointer([...path, index, 'name']), ref);
    }
    const { name: _identity, ...members } = item;
    mergeMap(target[index], members, ref, [...path, index], sources);
  }
}

/** A member replaced or removed takes the attribution of everything below it with it. */
function forget(sources: Map<string, string>, path: Path): void {
  const pointer = toPointer(path);
  for (const key of [...sources.keys()]) {
    if (key === pointer || key.startsWith(`${pointer}/`)) sources.delete(key);
  }
}

/** The attribution of each leaf of the final config, in document order. */
function leafSources(config: JsonObject, sources: Map<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  const walk = (value: Json, path: Path) => {
    const pointer = toPointer(path);
    const source = sources.get(pointer);
    if (source !== undefined) result[pointer] = source;
    else if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...path, index]));
    else if (isObject(value)) for (const [key, member] of Object.entries(value)) walk(member, [...path, key]);
  };
  walk(config, []);
  return result;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isEmptyList = (value: unknown): boolean => Array.isArray(value) && value.length === 0;

/** A non-empty list of objects with names; an empty list is replaced like any other list. */
function isNamedList(value: unknown): value is JsonObject[] {
  return Array.isArray(value) && value.length > 0 && value.every((item) => isObject(item) && typeof item.name === 'string');
}
