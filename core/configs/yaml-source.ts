import { Buffer } from 'node:buffer';
import { LineCounter, isAlias, isCollection, isMap, isPair, isScalar, isSeq, parseAllDocuments, visit, type Alias, type Document, type Node } from 'yaml';
import { problem } from '../problems.js';
import type { ConfigIssue } from './issues.js';
import { ConfigProblems } from './problems.js';
import { pointerSegments, type Position, type SourceMap } from './source-map.js';
import { documentFlaw } from '../document-flaws.js';

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

/** The tags of the YAML 1.2 core schema: anything else (`!foo`, `!!binary`, `!!set`) is refused. */
const CORE_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((name) => `tag:yaml.org,2002:${name}`));

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
  const documents = parseAllDocuments(text, { lineCounter: lines, schema: 'core', uniqueKeys: true, merge: false, prettyErrors: false });
  if (!Array.isArray(documents)) throw invalidYaml('the text holds no YAML document', []);
  if (documents.length !== 1) {
    const issues = documents.slice(1).map((document) => ({ pointer: '', message: 'a second document', ...at(lines, document.range[0]) }));
    throw invalidYaml(documents.length === 0 ? 'the text holds no YAML document' : `the text holds ${documents.length} YAML documents; send one`, issues);
  }
  const document = documents[0] as Document.Parsed;
  const syntaxErrors = [...document.errors, ...document.warnings].map((error) => ({
    pointer: '',
    message: error.message.split(' at line ')[0],
    ...at(lines, error.pos[0]),
  }));
  if (syntaxErrors.length > 0) throw invalidYaml(`the YAML is not well formed: ${syntaxErrors[0].message}`, syntaxErrors);
  checkTagsAndDepth(document, lines);
  checkAliases(document, lines);

  // The aliases were counted above, each at its place: yaml's own count (maxAliasCount) would refuse
  // some documents counted as small there, with no position, so it is turned off.
  const value = document.toJS({ maxAliasCount: -1 });
  const flaw = documentFlaw(value, Infinity);
  if (flaw?.kind === 'invalid-text') {
    const message = 'text with U+0000 or a lone surrogate is not allowed';
    throw invalidYaml(message, [{ pointer: flaw.pointer, message, ...locate(document, lines, flaw.pointer, false) }]);
  }
  return { value, locate: (pointer, key = false) => locate(document, lines, pointer, key) };
}

function checkTagsAndDepth(document: Document.Parsed, lines: LineCounter): void {
  const issues: ConfigIssue[] = [];
  visit(document, (_key, node, path) => {
    if (path.filter(isCollection).length > MAX_DEPTH) {
      issues.push({ pointer: '', message: `nested deeper than ${MAX_DEPTH} levels`, ...at(lines, (node as Node).range?.[0] ?? 0) });
      return visit.BREAK;
    }
    // A member of that name becomes an object's prototype in the first `target[key] = value` copy.
    if (isPair(node) && isScalar(node.key) && node.key.value === '__proto__') {
      issues.push({ pointer: '', message: 'a member named __proto__ is not allowed', ...at(lines, node.key.range?.[0] ?? 0) });
    }
    if ((isScalar(node) || isCollection(node)) && node.tag !== undefined && !CORE_TAGS.has(node.tag)) {
      issues.push({ pointer: '', message: `the tag ${node.tag} is not allowed: only plain YAML (maps, lists, strings, numbers, booleans, null)`, ...at(lines, node.range?.[0] ?? 0) });
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
function checkAliases(document: Document.Parsed, lines: LineCounter): void {
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
    else if (brought === Infinity) refusal = `the alias *${node.source} is inside the node it names: its expansion never ends`;
    else if (aliases > MAX_ALIASES) refusal = `more than ${MAX_ALIASES} aliases`;
    else if (brought > MAX_ALIASED_NODES) refusal = `the aliases expand to ${brought} nodes up to this one; at most ${MAX_ALIASED_NODES} are allowed`;
    if (refusal === undefined) return undefined;
    where = node.range?.[0] ?? 0;
    return visit.BREAK;
  });
  if (refusal !== undefined) throw invalidYaml(`the YAML cannot be expanded: ${refusal}`, [{ pointer: '', message: refusal, ...at(lines, where) }]);
}

function locate(document: Document.Parsed, lines: LineCounter, pointer: string, key: boolean): Position | undefined {
  let node: unknown = document.contents;
  let keyNode: unknown;
  for (const segment of pointerSegments(pointer)) {
    while (isAlias(node)) node = node.resolve(document);
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && String(isScalar(item.key) ? item.key.value : item.key) === segment);
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
  return problem(ConfigProblems.invalidYaml, detail, { errors });
}
