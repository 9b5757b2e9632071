import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { Finsynth, WebhookSignatureError, verifyWebhook } from '../../../clients/typescript/src/index.js';

const SECRET = 'whsec_3b9f0c7d1e2a4b6c8d0e1f2a3b4c5d6e';

const BODY = JSON.stringify({
  id: 'evt_0f1e2d3c4b5a69788796a5b4c3d2e1f0',
  type: 'job.succeeded',
  created: 1_790_000_000,
  livemode: false,
  data: { object: { id: 'job_5f0c', object: 'job', state: 'succeeded' } },
});

const now = () => Math.floor(Date.now() / 1000);

/** A `Finsynth-Signature` header as the interface defines it, computed here rather than by the client. */
const sign = (body: string, secret: string, t: number): string =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

/** The WebhookSignatureError a verification throws; fails the test when it passes. */
function refusal(verify: () => unknown): WebhookSignatureError {
  try {
    verify();
  } catch (error) {
    expect(error).to.be.instanceOf(WebhookSignatureError);
    return error as WebhookSignatureError;
  }
  throw new Error('the delivery was accepted');
}

describe('@finsynth/client: webhook signatures', () => {
  it('accept a delivery signed with the secret, returning its event', () => {
    const event = verifyWebhook(BODY, sign(BODY, SECRET, now()), SECRET);
    expect(event).to.deep.equal(JSON.parse(BODY));
    expect(verifyWebhook(Buffer.from(BODY), sign(BODY, SECRET, now()), SECRET).id).to.equal(event.id);
  });

  it('are the same through finsynth.webhooks.verify', () => {
    const finsynth = new Finsynth({ apiKey: 'svc_test_unused', baseUrl: 'http://127.0.0.1:9' });
    expect(finsynth.webhooks.verify(BODY, sign(BODY, SECRET, now()), SECRET).type).to.equal('job.succeeded');
  });

  it('refuse a tampered body', () => {
    const header = sign(BODY, SECRET, now());
    const tampered = BODY.replace('"livemode":false', '"livemode":true');
    expect(refusal(() => verifyWebhook(tampered, header, SECRET)).message).to.match(/no v1 signature/);
  });

  it('refuse a delivery signed with another secret', () => {
    const header = sign(BODY, 'whsec_another', now());
    expect(refusal(() => verifyWebhook(BODY, header, SECRET)).message).to.match(/no v1 signature/);
  });

  it('refuse a timestamp older or newer than the tolerance, 300 s by default', () => {
    const old = sign(BODY, SECRET, now() - 301);
    expect(refusal(() => verifyWebhook(BODY, old, SECRET)).message).to.match(/tolerance of 300 s/);
    const ahead = sign(BODY, SECRET, now() + 301);
    expect(refusal(() => verifyWebhook(BODY, ahead, SECRET)).message).to.match(/tolerance of 300 s/);
    expect(verifyWebhook(BODY, old, SECRET, { toleranceSeconds: 600 }).id).to.equal(JSON.parse(BODY).id);
  });

  it('refuse a timestamp changed after signing, even within the tolerance', () => {
    const t = now();
    const header = sign(BODY, SECRET, t).replace(`t=${t}`, `t=${t - 1}`);
    refusal(() => verifyWebhook(BODY, header, SECRET));
  });

  it('accept a header with several v1 signatures when one is of the secret (a secret being rolled)', () => {
    const t = now();
    const other = sign(BODY, 'whsec_old', t).split(',')[1];
    const header = `${sign(BODY, SECRET, t)},${other}`;
    expect(verifyWebhook(BODY, header, SECRET).id).to.equal(JSON.parse(BODY).id);
    expect(verifyWebhook(BODY, `t=${t},${other},${sign(BODY, SECRET, t).split(',')[1]}`, SECRET).type).to.equal(
      'job.succeeded',
    );
  });

  it('refuse a missing or malformed header', () => {
    expect(refusal(() => verifyWebhook(BODY, undefined, SECRET)).message).to.match(/no Finsynth-Signature/);
    expect(refusal(() => verifyWebhook(BODY, 'v1=00', SECRET)).message).to.match(/no timestamp/);
    expect(refusal(() => verifyWebhook(BODY, `t=${now()}`, SECRET)).message).to.match(/no v1/);
    refusal(() => verifyWebhook(BODY, `t=${now()},v1=not-hex`, SECRET));
  });
});
