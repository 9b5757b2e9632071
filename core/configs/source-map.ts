/** A place in a document's text: 1-based line and column. */
export interface Position {
  line: number;
  column: number;
}

/**
 * Where the parts of a parsed document (a YAML config, a JSON request body) stand in its text, by
 * JSON pointer: the position of the value, or of its member name when `key` is true; undefined for
 * what is not in the text.
 */
export interface SourceMap {
  locate(pointer: string, key?: boolean): Position | undefined;
}

/** The part of a document below `prefix` (a request body's `/config`), as a document of its own. */
export function within(source: SourceMap | undefined, prefix: string): SourceMap | undefined {
  return source && { locate: (pointer, key) => source.locate(prefix + pointer, key) };
}

/**
 * The position of `pointer`, or of its nearest ancestor that is in the text: a missing member is placed
 * at the object that lacks it.
 */
export function locateNearest(source: SourceMap, pointer: string, key = false): Position | undefined {
  let position = source.locate(pointer, key);
  while (!position && pointer !== '') {
    pointer = pointer.slice(0, pointer.lastIndexOf('/'));
    position = source.locate(pointer);
  }
  return position;
}

/** RFC 6901: the keys and indices of a pointer. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}
