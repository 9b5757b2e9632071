import { Buffer } from 'node:buffer';
import { LineCounter, isAlias, isCollection, isMap, isPair, isScalar, isSeq, parseAllDocuments, visit, type Document, type Node } from 'yaml';
import { problem } from '../problems.js';
import type { ConfigIssue } from './issues.js';
import { ConfigProblems } from './problems.js';
import { pointerSegments, type Position, type SourceMap } from './source-map.js';
import { documentFlaw } from '../document-flaws.js';

/** A YAML config may not be larger than this: it is a config, not data. */
export const MAX_YAML_BYTES = 1024 * 1024;
/**
 * Aliases a document may expand. A config needs few (a shared column override); billion-laughs
 * documents need millions, and yaml counts expanded nodes against this cap before building them.
 */
export const MAX_ALIAS_COUNT = 100;
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

  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw invalidYaml(`the YAML cannot be expanded: ${message} (at most ${MAX_ALIAS_COUNT} alias expansions)`, [{ pointer: '', message }]);
  }
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
