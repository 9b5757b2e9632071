import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header receivers verify: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. */
export const SIGNATURE_HEADER = 'Finsynth-Signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

const hmac = (secret: string, timestamp: number, body: string | Buffer): string =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');

export function signatureHeader(secret: string, timestamp: number, body: string | Buffer): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`;
}

/**
 * Whether the header signs the body with the secret, at a time within the tolerance of `now` (unix
 * seconds). Every `v1` is tried, so that a header signed with several secrets verifies with any of them.
 */
export function verifySignature(
  body: string | Buffer,
  header: string,
  secret: string,
  { toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = Math.floor(Date.now() / 1000) } = {},
): boolean {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [name, value] = part.split('=', 2).map((piece) => piece.trim());
    if (name === 't' && value && /^\d+$/.test(value)) timestamp = Number(value);
    else if (name === 'v1' && value) signatures.push(value);
  }
  if (timestamp === null || Math.abs(now - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(hmac(secret, timestamp, body), 'hex');
  return signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
