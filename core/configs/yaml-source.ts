import { Buffer } from 'node:buffer';
import {
  Composer,
  Lexer,
  LineCounter,
  Parser,
  isAlias,
  isCollection,
  isMap,
  isPair,
  isScalar,
  isSeq,
  visit,
  type Alias,
  type Document,
  type Node,
  type Pair,
  type YAMLMap,
} from 'yaml';
import { problem } from '../problems.js';
import type { ConfigIssue } from './issues.js';
import { ConfigProblems } from './problems.js';
import { pointerSegments, type Position, type SourceMap } from './source-map.js';
import { documentFlaw } from './document-flaws.js';
import { reportErrors } from '../bounded-validation.js';
import { YamlNesting } from './yaml-nesting.js';

/** A YAML config may not be larger than this: it is a config, not data. */
export const MAX_YAML_BYTES = 1024 * 1024;
/** Aliases a document may hold. A config needs few (a shared column override). */
export const MAX_ALIASES = 100;
/**
 * Nodes the aliases of a document may bring in, all together: each alias brings in every node of what
 * it names, the aliases inside that expanded. Billion-laughs documents bring in millions from a few
 * lines; a config's shared overrides, some dozens.
 */
export const MAX_ALIASED_NODES = 10_000;
/** Deeper than any config; a deeper document is an attack on the parser's stack, not a config. */
export const MAX_DEPTH = 32;
/**
 * The depth, as `YamlNesting` estimates it while lexing, at which a text is refused before it is
 * parsed: the estimate is at most the true depth plus two, so a text refused there is deeper than
 * MAX_DEPTH; and at least half of it, so what is parsed stays far within the composer's stack.
 * Texts between are parsed, and refused by the exact count of checkTagsAndDepth.
 */
const LEXED_DEPTH_LIMIT = 4 * MAX_DEPTH;

/** The tags of the YAML 1.2 core schema: anything else (`!foo`, `!!binary`, `!!set`) is refused. */
const CORE_TAGS = new Set(
  ['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((name) => `tag:yaml.org,2002:${name}`),
);

/** A parsed YAML document: its plain value, and where in the text each JSON pointer of it comes from. */
export interface YamlSource extends SourceMap {
  value: unknown;
}

/**
 * Parses one YAML config safely: size, documents, tags, aliases and depth are checked before any value
 * is built. Everything wrong is a ProblemError (413 for the size, 400 `invalid-yaml` otherwise) whose
 * `errors` carry line and column.
 */
export function parseYamlSource(text: string): YamlSource {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_YAML_BYTES) {
    throw problem(ConfigProblems.yamlTooLarge, `the YAML is ${bytes} bytes; at most ${MAX_YAML_BYTES} are accepted`);
  }
  const lines = new LineCounter();
  const documents = parseDocuments(text, lines);
  if (documents.length !== 1) {
    const issues = documents
      .slice(1)
      .map((document) => ({ pointer: '', message: 'a second document', ...at(lines, document.range[0]) }));
    throw invalidYaml(
      documents.length === 0
        ? 'the text holds no YAML document'
        : `the text holds ${documents.length} YAML documents; send one`,
      issues,
    );
  }
  const document = documents[0] as Document.Parsed;
  const syntaxErrors = [...document.errors, ...document.warnings].map((error) => ({
    pointer: '',
    message: error.message.split(' at line ')[0],
    ...at(lines, error.pos[0]),
  }));
  const malformed = [...syntaxErrors, ...duplicateKeys(document, lines)];
  if (malformed.length > 0) throw invalidYaml(`the YAML is not well formed: ${malformed[0].message}`, malformed);
  checkTagsAndDepth(document, lines);
  const aliased = checkAliases(document, lines);

  // The aliases were counted above, each at its place: yaml's own count (maxAliasCount) would refuse
  // some documents counted as small there, with no position, so it is turned off.
  const value = document.toJS({ maxAliasCount: -1 });
  const flaw = documentFlaw(value, Infinity);
  if (flaw?.kind === 'invalid-text') {
    const message = 'text with U+0000 or a lone surrogate is not allowed';
    throw invalidYaml(message, [
      {
        pointer: flaw.pointer,
        message,
        ...locate(document, lines, { pairs: new PairIndex(), aliased }, flaw.pointer, false),
      },
    ]);
  }
  const index = { pairs: new PairIndex(), aliased };
  return { value, locate: (pointer, key = false) => locate(document, lines, index, pointer, key) };
}

/**
 * yaml's parseAllDocuments, its lexer, parser and composer, with the nesting followed between the
 * lexer and the parser: a text too deep is refused at the token where it becomes so.
 */
function parseDocuments(text: string, lines: LineCounter): Document.Parsed[] {
  const parser = new Parser(lines.addNewLine);
  // The first line starts at 0: Parser#parse says so itself, Parser#next does not.
  lines.addNewLine(0);
  const nesting = new YamlNesting(LEXED_DEPTH_LIMIT);
  function* syntax() {
    for (const token of new Lexer().lex(text)) {
      const tooDeep = nesting.read(token);
      if (tooDeep !== undefined) {
        const message = `nested deeper than ${MAX_DEPTH} levels`;
        throw invalidYaml(message, [{ pointer: '', message, ...at(lines, tooDeep) }]);
      }
      yield* parser.next(token);
    }
    yield* parser.end();
  }
  // Keys are checked for uniqueness by duplicateKeys: yaml compares each key with every one before it.
  return Array.from(new Composer({ schema: 'core', uniqueKeys: false, merge: false }).compose(syntax()));
}

/** The keys met a second time in a map, as yaml's own check (uniqueKeys) finds them: scalars of the same value. */
function duplicateKeys(document: Document.Parsed, lines: LineCounter): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  visit(document, {
    Map(_key, map) {
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        if (!isScalar(key)) continue;
        if (seen.has(key.value))
          issues.push({ pointer: '', message: 'Map keys must be unique', ...at(lines, key.range?.[0] ?? 0) });
        seen.add(key.value);
      }
    },
  });
  return issues;
}

function checkTagsAndDepth(document: Document.Parsed, lines: LineCounter): void {
  const issues: ConfigIssue[] = [];
  visit(document, (_key, node, path) => {
    if (path.filter(isCollection).length > MAX_DEPTH) {
      const start = isPair(node) ? (node.key as Node | null)?.range?.[0] : (node as Node).range?.[0];
      issues.push({ pointer: '', message: `nested deeper than ${MAX_DEPTH} levels`, ...at(lines, start ?? 0) });
      return visit.BREAK;
    }
    // A member of that name becomes an object's prototype in the first `target[key] = value` copy.
    if (isPair(node) && isScalar(node.key) && node.key.value === '__proto__') {
      issues.push({
        pointer: '',
        message: 'a member named __proto__ is not allowed',
        ...at(lines, node.key.range?.[0] ?? 0),
      });
    }
    if ((isScalar(node) || isCollection(node)) && node.tag !== undefined && !CORE_TAGS.has(node.tag)) {
      issues.push({
        pointer: '',
        message: `the tag ${node.tag} is not allowed: only plain YAML (maps, lists, strings, numbers, booleans, null)`,
        ...at(lines, node.range?.[0] ?? 0),
      });
    }
    return undefined;
  });
  if (issues.length > 0) throw invalidYaml(issues[0].message, issues);
}

/**
 * Counts the aliases, in document order, and the nodes they bring in (MAX_ALIASES, MAX_ALIASED_NODES)
 * without expanding them: the size of each anchored node is computed once. The error names the alias
 * where a limit is crossed, or that names no anchor before it, or a node that holds it (an endless
 * expansion). An alias names the last node anchored with its name before it, as yaml resolves it.
 */
function checkAliases(document: Document.Parsed, lines: LineCounter): Map<Alias, Node> {
  const anchored = new Map<string, Node>();
  const targets = new Map<Alias, Node>();
  const sizes = new Map<Node, number>();
  const measuring = new Set<Node>();
  const size = (node: unknown): number => {
    if (isAlias(node)) return size(targets.get(node));
    if (isPair(node)) return size(node.key) + size(node.value);
    if (!isCollection(node)) return node ? 1 : 0;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    if (measuring.has(node)) return Infinity;
    measuring.add(node);
    const total = node.items.reduce((sum: number, item) => sum + size(item), 1);
    measuring.delete(node);
    sizes.set(node, total);
    return total;
  };
  let aliases = 0;
  let brought = 0;
  let refusal: string | undefined;
  let where = 0;
  visit(document, (_key, node) => {
    if ((isScalar(node) || isCollection(node)) && node.anchor) anchored.set(node.anchor, node);
    if (!isAlias(node)) return undefined;
    const target = anchored.get(node.source);
    aliases += 1;
    if (target) {
      targets.set(node, target);
      brought += size(target);
    }
    if (!target) refusal = `the alias *${node.source} names no anchor before it`;
    else if (brought === Infinity)
      refusal = `the alias *${node.source} is inside the node it names: its expansion never ends`;
    else if (aliases > MAX_ALIASES) refusal = `more than ${MAX_ALIASES} aliases`;
    else if (brought > MAX_ALIASED_NODES)
      refusal = `the aliases expand to ${brought} nodes up to this one; at most ${MAX_ALIASED_NODES} are allowed`;
    if (refusal === undefined) return undefined;
    where = node.range?.[0] ?? 0;
    return visit.BREAK;
  });
  if (refusal !== undefined)
    throw invalidYaml(`the YAML cannot be expanded: ${refusal}`, [
      { pointer: '', message: refusal, ...at(lines, where) },
    ]);
  return targets;
}

/**
 * Each map's pairs by key, indexed on the first question about that map: any number of questions
 * cost one pass over each map asked about, not one per question.
 */
class PairIndex {
  private readonly byMap = new WeakMap<YAMLMap, Map<string, Pair>>();

  pair(map: YAMLMap, key: string): Pair | undefined {
    let pairs = this.byMap.get(map);
    if (!pairs) {
      pairs = new Map(map.items.map((item) => [String(isScalar(item.key) ? item.key.value : item.key), item]));
      this.byMap.set(map, pairs);
    }
    return pairs.get(key);
  }
}

/** How `locate` finds its way: the pairs of maps by key, the node each alias names (from checkAliases). */
interface NodeIndex {
  pairs: PairIndex;
  aliased: Map<Alias, Node>;
}

function locate(
  document: Document.Parsed,
  lines: LineCounter,
  { pairs, aliased }: NodeIndex,
  pointer: string,
  key: boolean,
): Position | undefined {
  let node: unknown = document.contents;
  let keyNode: unknown;
  for (const segment of pointerSegments(pointer)) {
    // Every alias names a node: checkAliases refuses the document otherwise.
    while (isAlias(node)) node = aliased.get(node);
    if (isMap(node)) {
      const pair = pairs.pair(node, segment);
      if (!pair) return undefined;
      keyNode = pair.key;
      node = pair.value;
    } else if (isSeq(node)) {
      node = node.items[Number(segment)];
      keyNode = undefined;
    } else {
      return undefined;
    }
  }
  const target = (key && keyNode ? keyNode : node) as Node | null | undefined;
  const offset = target?.range?.[0];
  return offset === undefined ? undefined : at(lines, offset);
}

function at(lines: LineCounter, offset: number): Position {
  const { line, col } = lines.linePos(offset);
  return { line, column: col };
}

function invalidYaml(detail: string, errors: ConfigIssue[]) {
  return problem(ConfigProblems.invalidYaml, detail, { ...reportErrors({ errors, complete: true }) });
}
