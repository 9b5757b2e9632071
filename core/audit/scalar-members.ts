export type Scalar = string | number | boolean | null;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * The named top-level members of a JSON object, read from its text without building the rest: other
 * members are stepped over, and a named member whose value is an object or array is left out. The
 * audit reads a few numbers of each credit event this way, far more cheaply than `JSON.parse` (measured;
 * see docs/performance.md). For JSON as the stores write it (canonical: no whitespace); null for any
 * other text (whitespace, an escaped key, not one object), which the caller then parses whole.
 */
export function scalarMembers(json: string, names: readonly string[]): Record<string, Scalar> | null {
  if (json.charCodeAt(0) !== OPEN_OBJECT) return null;
  // Text without a backslash (as good as all of it) has no escape to look for in each key and string.
  const plain = json.indexOf('\\') === -1;
  const members: Record<string, Scalar> = {};
  if (json.charCodeAt(1) === CLOSE_OBJECT) return json.length === 2 ? members : null;
  for (let at = 1; ;) {
    if (json.charCodeAt(at) !== QUOTE) return null;
    const keyEnd = json.indexOf('"', at + 1);
    if (keyEnd === -1 || json.charCodeAt(keyEnd + 1) !== COLON || (!plain && escapes(json, at + 1, keyEnd)))
      return null;
    const name = named(json, at + 1, keyEnd, names);
    const valueAt = keyEnd + 2;
    const first = json.charCodeAt(valueAt);
    let end: number;
    if (first === QUOTE) {
      end = stringEnd(json, valueAt, plain);
      if (end === -1) return null;
      if (name !== undefined) {
        const text = json.slice(valueAt + 1, end - 1);
        const value = !plain && text.includes('\\') ? unescaped(`"${text}"`) : text;
        if (value === undefined) return null;
        members[name] = value;
      }
    } else if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
      end = nestedEnd(json, valueAt, plain);
      // A repeated key takes its last value: here one this reader does not keep.
      if (end === -1 || (name !== undefined && Object.hasOwn(members, name))) return null;
    } else {
      end = valueAt;
      for (let c = first; c !== COMMA && c !== CLOSE_OBJECT; c = json.charCodeAt(end)) {
        if (Number.isNaN(c)) return null;
        end += 1;
      }
      if (name !== undefined) {
        const value = literal(json, valueAt, end);
        if (value === undefined) return null;
        members[name] = value;
      }
    }
    if (json.charCodeAt(end) === CLOSE_OBJECT) return end === json.length - 1 ? members : null;
    if (json.charCodeAt(end) !== COMMA) return null;
    at = end + 1;
  }
}

/** Whether the text between `from` and `to` holds an escape: a key spelled otherwise than its name. */
function escapes(json: string, from: number, to: number): boolean {
  for (let i = from; i < to; i += 1) if (json.charCodeAt(i) === BACKSLASH) return true;
  return false;
}

/** Which of the names the key between `from` and `to` is, if any. */
function named(json: string, from: number, to: number, names: readonly string[]): string | undefined {
  const first = json.charCodeAt(from);
  for (let i = 0; i < names.length; i += 1) {
    const name = names[i];
    if (name.length === to - from && name.charCodeAt(0) === first && json.startsWith(name, from)) return name;
  }
  return undefined;
}

function unescaped(text: string): string | undefined {
  try {
    return JSON.parse(text) as string;
  } catch {
    return undefined;
  }
}

function literal(json: string, from: number, to: number): Scalar | undefined {
  const natural = naturalNumber(json, from, to);
  if (natural !== undefined) return natural;
  const text = json.slice(from, to);
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  return JSON_NUMBER.test(text) ? Number(text) : undefined;
}

/** The common case, digits alone, without a slice or a regular expression. */
function naturalNumber(json: string, from: number, to: number): number | undefined {
  if (to - from > 15 || (json.charCodeAt(from) === 0x30 && to - from > 1)) return undefined;
  let value = 0;
  for (let i = from; i < to; i += 1) {
    const digit = json.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return to > from ? value : undefined;
}

/** The index just past the string that opens at `at`; -1 if it never closes. */
function stringEnd(json: string, at: number, plain: boolean): number {
  if (plain) return json.indexOf('"', at + 1) + 1 || -1;
  for (let quote = json.indexOf('"', at + 1); quote !== -1; quote = json.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (json.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
  }
  return -1;
}

/** The index just past the object or array that opens at `at`; -1 if it never closes. */
function nestedEnd(json: string, at: number, plain: boolean): number {
  let depth = 0;
  for (let i = at; i < json.length; i += 1) {
    const c = json.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(json, i, plain) - 1;
      if (i === -2) return -1;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth += 1;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}
