/**
 * One thing wrong with a config, in the shape every config endpoint answers: a JSON pointer into the
 * document and a message; line and column (1-based) when the document came as YAML.
 */
export interface ConfigIssue {
  pointer: string;
  message: string;
  line?: number;
  column?: number;
  /** Set while checking: the issue is about a member's name (unknown member), so its key is located, not its value. */
  key?: boolean;
}

/** RFC 6901: the pointer of a path of keys and indices. */
export function toPointer(path: readonly (string | number)[]): string {
  return path.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
