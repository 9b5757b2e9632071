import { basename, dirname, isAbsolute } from 'node:path';
import type { RefusedPack } from './registry.js';

/** A refused pack as an answer of the API shows it: paths within the pack, none of the server's folders. */
export interface PublicRefusal {
  /** `builtin:<name>`, an npm package's name, or the pack folder's own name. */
  source: string;
  name: string | null;
  /** The file at fault, from the pack's folder (from its own folder for an npm or built-in pack). */
  file: string | null;
  line: number | null;
  reasons: string[];
}

/**
 * An absolute path of a file in a message (its last name has an extension, which a manifest's JSON pointer such as
 * `/tables/x` never has), plainly or as a file URL, after a space, a bracket, a colon or a quote.
 */
const FILE_PATH = /(^|[\s(:'"])(?:file:\/\/)?(\/[^\s:'"()]*\.[A-Za-z0-9]+)(?=$|[\s:'"()])/g;

/**
 * The refusal without the server's paths: the log keeps them for the operator, while `/readyz` (no key) and the
 * catalog answer anyone. Paths below the pack's folder are shown from it, any other path by its last name.
 */
export function publicRefusal(refused: RefusedPack): PublicRefusal {
  const folder = isAbsolute(refused.source) ? refused.source : refused.file ? dirname(refused.file) : undefined;
  const withinPack = (path: string): string =>
    folder !== undefined && path.startsWith(`${folder}/`) ? path.slice(folder.length + 1) : basename(path);
  const scrub = (text: string): string => {
    const named = folder === undefined ? text : text.replaceAll(`${folder}/`, '').replaceAll(folder, basename(folder));
    return named.replace(FILE_PATH, (_, before: string, path: string) => before + withinPack(path));
  };
  const pathLike = isAbsolute(refused.source) || refused.source.startsWith('.');
  return {
    source: pathLike ? basename(refused.source) : refused.source,
    name: refused.name,
    file: refused.file ? withinPack(refused.file) : null,
    line: refused.line ?? null,
    reasons: refused.reasons.map(scrub),
  };
}
