import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { signatureHeader, verifySignature } from '../../../core/webhooks/signature.js';

const secret = 'whsec_test';
const body = '{"id":"evt_1","type":"job.succeeded"}';
const now = 1_767_225_600;

describe('webhook signatures', () => {
  it('signs "<t>.<raw body>" with HMAC-SHA256 of the secret, in hex', () => {
    const expected = createHmac('sha256', secret).update(`${now}.${body}`).digest('hex');
    expect(signatureHeader(secret, now, body)).to.equal(`t=${now},v1=${expected}`);
  });

  it('verifies within the tolerance only, and only the exact body with the exact secret', () => {
    const header = signatureHeader(secret, now, body);
    expect(verifySignature(body, header, secret, { now })).to.equal(true);
    expect(verifySignature(Buffer.from(body), header, secret, { now: now + 300 })).to.equal(true);
    expect(verifySignature(body, header, secret, { now: now + 301 })).to.equal(false);
    expect(verifySignature(body, header, secret, { now: now - 301 })).to.equal(false);
    expect(verifySignature(body, header, secret, { now: now + 1000, toleranceSeconds: 1000 })).to.equal(true);
    expect(verifySignature(`${body} `, header, secret, { now })).to.equal(false);
    expect(verifySignature(body, header, 'whsec_other', { now })).to.equal(false);
  });

  it('accepts any of several v1 signatures, and refuses headers without a time or a signature', () => {
    const [, v1] = signatureHeader(secret, now, body).split(',v1=');
    expect(verifySignature(body, `t=${now},v1=${'0'.repeat(64)},v1=${v1}`, secret, { now })).to.equal(true);
    expect(verifySignature(body, `v1=${v1}`, secret, { now })).to.equal(false);
    expect(verifySignature(body, `t=${now}`, secret, { now })).to.equal(false);
    expect(verifySignature(body, `t=${now},v1=abc`, secret, { now })).to.equal(false);
    expect(verifySignature(body, '', secret, { now })).to.equal(false);
  });
});
