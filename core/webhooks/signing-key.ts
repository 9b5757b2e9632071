import { createHmac, randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Fewer characters than this is no key: a file left empty or cut short must stop the service, not sign. */
const MIN_KEY_LENGTH = 32;

/**
 * The key every endpoint's signing secret is derived from. Each endpoint's secret is
 * `whsec_` + base64url(HMAC-SHA256(key, endpoint id)): no secret is ever stored, in the events or
 * elsewhere, and every instance that shares the key derives the same secrets.
 */
export class WebhookSecrets {
  constructor(private readonly key: string) {
    if (key.length < MIN_KEY_LENGTH)
      throw new Error(`the webhook signing key must be at least ${MIN_KEY_LENGTH} characters`);
  }

  secretFor(endpointId: string): string {
    return `whsec_${createHmac('sha256', this.key).update(endpointId).digest('base64url')}`;
  }
}

/**
 * Reads the signing key file, creating it (0600, 256 random bits in hex) if there is none. Created under
 * another name and linked into place, so that two instances starting at once on one folder never read a
 * half-written key, and both end up with the one that was linked first.
 */
export async function loadSigningKey(file: string): Promise<WebhookSecrets> {
  const existing = await readKey(file);
  if (existing !== null) return secretsFrom(file, existing);
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.${randomBytes(8).toString('hex')}.partial`;
  const handle = await open(partial, 'wx', 0o600);
  try {
    await handle.writeFile(`${randomBytes(32).toString('hex')}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(partial, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(partial, { force: true });
  }
  const key = await readKey(file);
  if (key === null) throw new Error(`${file} vanished while it was being created`);
  return secretsFrom(file, key);
}

function secretsFrom(file: string, key: string): WebhookSecrets {
  try {
    return new WebhookSecrets(key);
  } catch (error) {
    throw new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

async function readKey(file: string): Promise<string | null> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
