import { getLocation, parse, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { pointerSegments, type Position, type SourceMap } from '../../core/configs/source-map.js';
import { toPointer } from '../../core/configs/issues.js';

/*
 * Bodies are parsed by JSON.parse, the fastest parser there is, which tells neither where it failed
 * nor where a value stands. The text is read a second time, by jsonc-parser in strict JSON mode, only
 * when there is an error to place: a valid body pays for one closure, never for a second parse.
 */

const STRICT_JSON = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

/**
 * Where each JSON pointer of a well-formed JSON text stands; the text is parsed again on the first
 * question only. The text is no deeper than MAX_JSON_DEPTH (api/http/body.ts), within jsonc-parser's stack.
 */
export function jsonSourceMap(text: string): SourceMap {
  let tree: { root: Node | undefined; lines: LineStarts; members: MemberIndex } | undefined;
  return {
    locate(pointer, key = false) {
      tree ??= {
        root: parseTree(text, undefined, STRICT_JSON),
        lines: new LineStarts(text),
        members: new MemberIndex(),
      };
      const member = nodeAt(tree.root, pointerSegments(pointer), tree.members);
      if (!member) return undefined;
      return tree.lines.position((key && member.name ? member.name : member.value).offset);
    },
  };
}

/**
 * Each object's members by name, indexed on the first question about that object: any number of
 * questions cost one pass over each object asked about, not one per question.
 */
class MemberIndex {
  private readonly byObject = new WeakMap<Node, Map<unknown, Node>>();

  member(object: Node, name: string): Node | undefined {
    let members = this.byObject.get(object);
    if (!members) {
      // A later member of the same name replaces an earlier one: the one JSON.parse keeps.
      members = new Map((object.children ?? []).map((property) => [property.children?.[0].value, property]));
      this.byObject.set(object, members);
    }
    return members.get(name);
  }
}

/** The value at a pointer, and its member name when it is an object's member. */
function nodeAt(
  root: Node | undefined,
  segments: string[],
  members: MemberIndex,
): { value: Node; name?: Node } | undefined {
  let found: { value: Node; name?: Node } | undefined = root && { value: root };
  for (const segment of segments) {
    const { value } = found ?? {};
    if (value?.type === 'object') {
      const property = members.member(value, segment);
      found = property?.children?.[1] && { value: property.children[1], name: property.children[0] };
    } else if (value?.type === 'array' && /^(0|[1-9]\d*)$/.test(segment)) {
      const item = value.children?.[Number(segment)];
      found = item && { value: item };
    } else {
      return undefined;
    }
  }
  return found;
}

/** A JSON text's first syntax error: what is wrong, where (line, column), and in which member (a JSON pointer). */
export interface JsonSyntaxError extends Partial<Position> {
  pointer: string;
  message: string;
}

/**
 * Why JSON.parse refused `text`. Texts nested deep enough to exhaust the stack of the second parser
 * (an attack, not a mistake) are answered without a position.
 */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const errors: ParseError[] = [];
  let path: (string | number)[];
  try {
    parse(text, errors, STRICT_JSON);
    if (errors.length === 0) return undefined;
    path = getLocation(text, errors[0].offset).path;
  } catch (error) {
    if (error instanceof RangeError) return { pointer: '', message: 'the JSON nests too deep to be read' };
    throw error;
  }
  const code = printParseErrorCode(errors[0].error);
  // Where a member name is expected, the location names an empty member that is not there.
  if (code === 'PropertyNameExpected' && path.at(-1) === '') path = path.slice(0, -1);
  return {
    pointer: toPointer(path),
    message: MESSAGES[code] ?? 'the JSON is malformed',
    ...new LineStarts(text).position(errors[0].offset),
  };
}

/** Where a JSON text first nests deeper than allowed: the value that opens the level too many. */
export interface TooDeep extends Position {
  pointer: string;
}

/**
 * Where `text` first opens an array or object deeper than `maxDepth` levels (the root is level 1),
 * found by one pass over the text without recursion, whether or not the text is well-formed JSON.
 */
export function tooDeepAt(text: string, maxDepth: number): TooDeep | undefined {
  // Per open array or object: whether it is an object, and the index or member name being read in it.
  const objects: boolean[] = [];
  const segments: (string | number)[] = [];
  let expectingName = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    if (char === '"') {
      const end = stringEnd(text, at);
      if (expectingName) segments[segments.length - 1] = memberName(text.slice(at, end + 1));
      expectingName = false;
      at = end;
    } else if (char === '[' || char === '{') {
      if (objects.length >= maxDepth) return { pointer: toPointer(segments), ...new LineStarts(text).position(at) };
      objects.push(char === '{');
      segments.push(char === '{' ? '' : 0);
      expectingName = char === '{';
    } else if (char === ']' || char === '}') {
      objects.pop();
      segments.pop();
      expectingName = false;
    } else if (char === ',' && objects.length > 0) {
      const last = segments.length - 1;
      if (objects[last]) expectingName = true;
      else segments[last] = Number(segments[last]) + 1;
    }
  }
  return undefined;
}

/** The offset of the quote that closes the string opened at `start`, or the text's end. */
function stringEnd(text: string, start: number): number {
  for (let at = start + 1; at < text.length; at += 1) {
    if (text[at] === '\\') at += 1;
    else if (text[at] === '"') return at;
  }
  return text.length;
}

function memberName(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}

/** By jsonc-parser's error names (its codes are a const enum, out of reach of an ES module). */
const MESSAGES: Record<string, string> = {
  InvalidSymbol: 'unexpected character (JSON has no comments, single quotes, NaN or unquoted names)',
  InvalidNumberFormat: 'the number is not a JSON number',
  PropertyNameExpected: 'a member name in double quotes is expected (JSON has no trailing commas)',
  ValueExpected: 'a value is expected',
  ColonExpected: 'a colon is expected after the member name',
  CommaExpected: 'a comma is expected',
  CloseBraceExpected: 'the object is not closed: "}" is expected',
  CloseBracketExpected: 'the array is not closed: "]" is expected',
  EndOfFileExpected: 'the JSON document has ended: nothing may follow it',
  InvalidCommentToken: 'JSON has no comments',
  UnexpectedEndOfComment: 'JSON has no comments',
  UnexpectedEndOfString: 'the string is not closed',
  UnexpectedEndOfNumber: 'the number is incomplete',
  InvalidUnicode: 'a \\u escape needs four hexadecimal digits',
  InvalidEscapeCharacter: 'invalid escape sequence in a string',
  InvalidCharacter: 'a control character in a string must be escaped',
};

/** Offsets to 1-based lines and columns (columns in UTF-16 code units, as the YAML positions). */
class LineStarts {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) this.starts.push(at + 1);
  }

  position(offset: number): Position {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - this.starts[low] + 1 };
  }
}
