import { readFile } from 'node:fs/promises';
import { parseVerifierKey } from '../core/audit/log/note.js';
import { UsageError } from './options.js';

/** `--public-key`: the verifier key itself (`name+id+key`), or a file that holds it. */
export async function verifierKeyOption(value: string | undefined, command: string): Promise<string> {
  if (value === undefined)
    throw new UsageError(`${command} needs --public-key: the log's verifier key, or a file that holds it`);
  try {
    parseVerifierKey(value);
    return value.trim();
  } catch {
    // Not a key itself: a file that holds one.
  }
  let text: string;
  try {
    text = (await readFile(value, 'utf8')).trim();
  } catch {
    throw new UsageError(`--public-key "${value}" is neither a verifier key (name+id+key) nor a readable file`);
  }
  try {
    parseVerifierKey(text);
  } catch (error) {
    throw new UsageError(`${value} holds no verifier key: ${(error as Error).message}`);
  }
  return text;
}
