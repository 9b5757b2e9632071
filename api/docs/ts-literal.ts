import { Source } from './client-calls.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Past this width an object or array is written one member a line, as Prettier would at its default width. */
export const LINE_WIDTH = 80;

const quote = (text: string): string =>
  `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;

/**
 * A JSON value (or `Source`) written as a TypeScript expression in the project's style: single quotes, bare
 * keys, on one line while it fits after the `lead` characters already on its line and the `tail` after it
 * (a `lead` of -Infinity: always on one line).
 */
export function tsLiteral(value: unknown, indent = '', lead = indent.length, tail = 0): string {
  if (value instanceof Source) return value.text;
  if (typeof value === 'string') return quote(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  const inner = `${indent}  `;
  const isArray = Array.isArray(value);
  const entries: [string, unknown][] = isArray
    ? value.map((item) => ['', item])
    : Object.entries(value).map(([key, member]) => [`${IDENTIFIER.test(key) ? key : quote(key)}: `, member]);
  if (entries.length === 0) return isArray ? '[]' : '{}';
  const [open, close] = isArray ? ['[', ']'] : ['{ ', ' }'];
  const members = entries.map(([key, member]) => `${key}${tsLiteral(member, '', -Infinity)}`);
  const flat = `${open}${members.join(', ')}${close}`;
  if (lead + flat.length + tail <= LINE_WIDTH) return flat;
  const lines = entries.map(
    ([key, member]) => `${inner}${key}${tsLiteral(member, inner, inner.length + key.length, 1)},`,
  );
  return `${open.trim()}\n${lines.join('\n')}\n${indent}${close.trim()}`;
}
