/** Strings that YAML would read as something else unless quoted. */
const PLAIN = /^[A-Za-z_][A-Za-z0-9_ ./-]*$/;
const RESERVED = /^(true|false|null|yes|no|on|off|y|n|~)$/i;

const scalar = (value: unknown): string => {
  if (typeof value === 'string')
    return PLAIN.test(value) && !RESERVED.test(value) && !/ $/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A JSON value (a saved config as the service returns it) as block YAML, for the editor: strings are quoted
 * as JSON (valid YAML) whenever they could be read as another type.
 */
export function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return `${indent}[]\n`;
    return value
      .map((item) => {
        if (isPlainObject(item) || Array.isArray(item)) {
          const nested = toYaml(item, `${indent}  `);
          return `${indent}- ${nested.slice(indent.length + 2)}`;
        }
        return `${indent}- ${scalar(item)}\n`;
      })
      .join('');
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return `${indent}{}\n`;
    return entries
      .map(([name, member]) => {
        const key = scalar(name);
        if ((isPlainObject(member) && Object.keys(member).length > 0) || (Array.isArray(member) && member.length > 0))
          return `${indent}${key}:\n${toYaml(member, `${indent}  `)}`;
        return `${indent}${key}: ${isPlainObject(member) ? '{}' : Array.isArray(member) ? '[]' : scalar(member)}\n`;
      })
      .join('');
  }
  return `${indent}${scalar(value)}\n`;
}
