import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEventType } from './webhook-types.js';

/** An event as the service delivers it to an endpoint. */
export interface WebhookEvent {
  /** `evt_…`: the same across retries of the event to an endpoint, so that a receiver can drop repeats. */
  id: string;
  type: WebhookEventType;
  /** Unix seconds. */
  created: number;
  livemode: boolean;
  data: { object: Record<string, unknown> };
}

export interface VerifyWebhookOptions {
  /** How far the signed time may be from now, in seconds (300 by default): older deliveries are refused. */
  toleranceSeconds?: number;
}

/** The delivery is not one the service signed with this secret, or it was signed too long ago. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** `t=<unix seconds>` and every `v1=<hex>` of a `Finsynth-Signature` header. */
function parseSignature(header: string): { timestamp: number; signatures: string[] } {
  let timestamp = Number.NaN;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    else if (key === 'v1') signatures.push(value);
  }
  if (Number.isNaN(timestamp)) throw new WebhookSignatureError('the signature header has no timestamp (t=)');
  if (signatures.length === 0) throw new WebhookSignatureError('the signature header has no v1 signature');
  return { timestamp, signatures };
}

/**
 * Checks a webhook delivery and returns its event. `rawBody` must be the bytes as received, before any JSON
 * parsing: the signature is an HMAC-SHA256, keyed with the endpoint's secret, of `<t>.<raw body>`. Each `v1`
 * of the header is compared in constant time; the signed time must be within the tolerance of now, so that
 * a captured delivery cannot be replayed later. Throws WebhookSignatureError otherwise.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secret: string,
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  if (!signatureHeader) throw new WebhookSignatureError('no Finsynth-Signature header');
  const { timestamp, signatures } = parseSignature(signatureHeader);
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  const matches = signatures.some((signature) => {
    const given = /^[0-9a-f]+$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookSignatureError('no v1 signature of the header matches the body and the secret');
  const tolerance = options.toleranceSeconds ?? 300;
  const age = Math.abs(Math.floor(Date.now() / 1000) - timestamp);
  if (age > tolerance) {
    throw new WebhookSignatureError(
      `the signature is ${age} s away from now, more than the tolerance of ${tolerance} s`,
    );
  }
  const event: WebhookEvent = JSON.parse(body.toString('utf8'));
  return event;
}
