import { expect } from 'chai';
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { canonicalJson } from '../../../../core/events/canonical-json.js';
import { chainHash, type HashedContent } from '../../../../core/events/hash-chain.js';
import { GENESIS_HASH } from '../../../../core/events/envelope.js';

/**
 * docs/audit.md promises auditors that an event's hash can be recomputed with any RFC 8785 (JCS) tool. The
 * npm package `canonicalize` is such a tool, written apart from this project: for every I-JSON value the
 * two must write the same text, and the event hash must be the one the documentation spells out.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** No lone surrogate in any string or member name: I-JSON forbids them, and JCS tools refuse them. */
const wellFormed = (value: unknown): boolean => {
  if (typeof value === 'string') return !LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.every(wellFormed);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).every(([key, member]) => wellFormed(key) && wellFormed(member));
  return true;
};
const values = fc.oneof(
  fc.jsonValue({ stringUnit: 'grapheme' }),
  fc.jsonValue({ stringUnit: 'binary' }).filter(wellFormed),
  fc.jsonValue({ stringUnit: 'grapheme-ascii' }),
);

describe('canonical JSON is RFC 8785 (JCS)', () => {
  it('writes every I-JSON value as the canonicalize package does', () => {
    fc.assert(
      fc.property(values, (value) => {
        expect(canonicalJson(value)).to.equal(canonicalize(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('orders members by UTF-16 code units and writes numbers as ECMAScript does, as JCS asks', () => {
    const value = { '\u20ac': 1, '\r': 2, '\ud83d\ude00': 3, '\ufb33': 4, '1': 5, a: [1e21, 1e-7, -0, 0.1 + 0.2] };
    expect(canonicalJson(value)).to.equal(canonicalize(value));
    expect(canonicalJson(value)).to.equal(
      '{"\\r":2,"1":5,"a":[1e+21,1e-7,0,0.30000000000000004],"\u20ac":1,"\ud83d\ude00":3,"\ufb33":4}',
    );
  });

  it('gives the event hash docs/audit.md spells out: SHA-256 of the previous hash, a newline, and the JCS envelope', () => {
    const text = fc.string({ unit: 'grapheme' });
    const envelope = fc.record({
      id: fc.uuid(),
      stream: text,
      revision: fc.nat(),
      type: text,
      version: fc.integer({ min: 1, max: 9 }),
      data: fc.jsonValue({ stringUnit: 'grapheme' }),
      metadata: fc.dictionary(text, fc.jsonValue({ stringUnit: 'grapheme' })),
      recorded_at: fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
    });
    fc.assert(
      fc.property(envelope, fc.boolean(), (event: HashedContent, first) => {
        const previous = first ? GENESIS_HASH : createHash('sha256').update(event.id).digest('hex');
        const expected = createHash('sha256')
          .update(`${previous}\n${canonicalize(event)}`, 'utf8')
          .digest('hex');
        expect(chainHash(previous, event)).to.equal(expected);
      }),
      { numRuns: 500 },
    );
  });
});
