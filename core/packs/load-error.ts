import { fileURLToPath } from 'node:url';
import { dirname } from 'node:path';

/** Where a pack's module failed and why: what the operator needs to fix it without reading a stack. */
export interface LoadFailure {
  /** The file at fault (the pack's own, where the error names one), or null. */
  file: string | null;
  line: number | null;
  column: number | null;
  /** The cause, in one line: `syntax error: Expected "}" but found "description"`, `TypeError: …`. */
  cause: string;
}

/** esbuild's message for a file it cannot transform: `Transform failed with N error(s):` and a line per error. */
const TRANSFORM_FAILED = /^Transform failed with (\d+) errors?:/;
const ESBUILD_LOCATION = /^(.+?):(\d+):(\d+): ERROR: (.*)$/;
/** A stack frame: `at fn (file:line:col)` or `at file:line:col`. */
const FRAME = /^\s*at (?:.*? \()?((?:file:\/\/)?\/[^():]+|[A-Za-z]:\\[^():]+):(\d+):(\d+)\)?$/;
/** The first stack line of a V8 syntax error in an ES module: `file:///…/index.js:3`. */
const V8_SYNTAX_LOCATION = /^((?:file:\/\/)?\/\S+?):(\d+)$/;

/**
 * Describes why a pack module failed to load: the file, line and column inside the pack (from esbuild's report
 * of a syntax error, from a V8 syntax error, or from the first frame of the stack that lies in the pack's folder,
 * which source maps give in TypeScript lines), and the cause in one line.
 */
export function describeLoadFailure(error: unknown, moduleUrl: string): LoadFailure {
  const message = error instanceof Error ? error.message : String(error);
  const transform = TRANSFORM_FAILED.exec(message);
  if (transform) {
    const located = message
      .split('\n')
      .slice(1)
      .map((line) => ESBUILD_LOCATION.exec(line))
      .find((match) => match !== null);
    const more = Number(transform[1]) > 1 ? ` (and ${Number(transform[1]) - 1} more)` : '';
    if (located)
      return {
        file: located[1],
        line: Number(located[2]),
        column: Number(located[3]),
        cause: `syntax error: ${located[4]}${more}`,
      };
    return { file: null, line: null, column: null, cause: `syntax error: ${message.split('\n').slice(1).join(' ')}` };
  }
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  const name = error instanceof Error ? error.name : 'Error';
  const cause = `${name}: ${firstLine(message)}`;
  if (error instanceof SyntaxError) {
    const v8 = V8_SYNTAX_LOCATION.exec(stack.split('\n')[0] ?? '');
    if (v8) return { file: pathOf(v8[1]), line: Number(v8[2]), column: null, cause };
  }
  const folder = packFolder(moduleUrl);
  for (const line of stack.split('\n')) {
    const frame = FRAME.exec(line);
    if (!frame) continue;
    const file = pathOf(frame[1]);
    if (folder && file.startsWith(folder) && !file.includes('/node_modules/'))
      return { file, line: Number(frame[2]), column: Number(frame[3]), cause };
  }
  return { file: null, line: null, column: null, cause };
}

/** The failure as one reason: `<file>:<line>:<column>: <cause>`. */
export function failureReason({ file, line, column, cause }: LoadFailure): string {
  if (file === null) return cause;
  return `${file}${line === null ? '' : `:${line}`}${column === null ? '' : `:${column}`}: ${cause}`;
}

function firstLine(text: string): string {
  return text.split('\n')[0];
}

function pathOf(location: string): string {
  return location.startsWith('file:') ? fileURLToPath(location) : location;
}

/** The folder of a pack's entry module (null for an npm package imported by name). */
function packFolder(moduleUrl: string): string | null {
  return moduleUrl.startsWith('file:') ? `${dirname(fileURLToPath(moduleUrl))}/` : null;
}
