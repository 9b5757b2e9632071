/**
 * JSON with object keys sorted at every depth. Hashes must not depend on the order in which a
 * database (jsonb reorders keys) or a serializer hands members back. Apart from the order it is
 * exactly JSON.stringify (toJSON honoured; undefined, functions and symbols left out of objects and
 * null in arrays), so that a hash covers what the store writes and reads back.
 *
 * Hand-written rather than a replacer over JSON.stringify: every appended event is hashed through
 * this, and the plain loops are measurably faster (see docs/performance.md).
 */
export function canonicalJson(value: unknown): string {
  return serialize(value) ?? 'null';
}

// eslint-disable-next-line no-control-regex -- JSON escapes the control characters, so they must be matched.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function quote(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** undefined where JSON.stringify would leave the member out. */
function serialize(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    case 'bigint':
      return JSON.stringify(value); // throws, as JSON.stringify does
    default:
      return undefined;
  }
  if (value === null) return 'null';
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return serialize((value as { toJSON(): unknown }).toJSON());
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i += 1) out += (i === 0 ? '' : ',') + (serialize(value[i]) ?? 'null');
    return `${out}]`;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).sort();
  let out = '{';
  for (const key of keys) {
    const member = serialize(object[key]);
    if (member === undefined) continue;
    out += (out.length === 1 ? '' : ',') + quote(key) + ':' + member;
  }
  return `${out}}`;
}
