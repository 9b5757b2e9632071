import { ResponseChecker } from '../../support/openapi.js';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';

describe('usage, billing and audit answer as the OpenAPI document says', () => {
  let app: TestApp;
  let account: TestAccount;

  before(async () => {
    app = await startTestApp();
    account = await openAccount(app, { tier: 'developer', credits: 100 });
    await app.services.credits.debit({
      accountId: account.accountId,
      mode: 'live',
      keyId: null,
      reference: 'req_1',
      operation: 'quick',
      sector: 'cards',
      tables: [{ name: 'transactions', rows: 1000, credits: 2 }],
      credits: 2,
    });
    await app.services.credits.refund(account.accountId, 'req_1', 'generation failed');
  });
  after(() => app.close());

  it('every status, problems included', async () => {
    const checker = new ResponseChecker((await request(app, 'GET', '/v1/openapi.json')).body);
    const live = { key: account.live };
    const exchanges: [string, string, string, Parameters<typeof request>[3]][] = [
      ['GET', '/v1/usage', '/v1/usage', live],
      ['GET', '/v1/usage?from=2030-01-01T00:00:00Z&to=2020-01-01T00:00:00Z', '/v1/usage', live],
      ['GET', '/v1/usage?colour=blue', '/v1/usage', live],
      ['GET', '/v1/usage/records?mode=live&limit=1', '/v1/usage/records', live],
      ['GET', '/v1/usage/records?cursor=bm9wZQ', '/v1/usage/records', live],
      ['GET', '/v1/billing/subscription', '/v1/billing/subscription', live],
      ['POST', '/v1/billing/subscription', '/v1/billing/subscription', { ...live, body: { tier: 'team' } }],
      ['PUT', '/v1/billing/payment-method', '/v1/billing/payment-method', { ...live, body: {} }],
      [
        'PUT',
        '/v1/billing/payment-method',
        '/v1/billing/payment-method',
        { ...live, body: { payment_token: 'tok_chargeDeclined' } },
      ],
      ['POST', '/v1/billing/subscription', '/v1/billing/subscription', { ...live, body: { tier: 'team' } }],
      [
        'PUT',
        '/v1/billing/payment-method',
        '/v1/billing/payment-method',
        { key: account.test, body: { payment_token: 'tok_visa' } },
      ],
      [
        'POST',
        '/v1/billing/subscription',
        '/v1/billing/subscription',
        { ...live, body: { tier: 'scale', payment_token: 'tok_visa' } },
      ],
      ['POST', '/v1/billing/subscription', '/v1/billing/subscription', { ...live, body: { tier: 'gold' } }],
      ['POST', '/v1/billing/subscription', '/v1/billing/subscription', { key: account.test, body: { tier: 'team' } }],
      ['GET', '/v1/billing/credits', '/v1/billing/credits', live],
      [
        'POST',
        '/v1/billing/credits',
        '/v1/billing/credits',
        { ...live, body: { pack: 'small', payment_token: 'tok_mastercard' } },
      ],
      [
        'POST',
        '/v1/billing/credits',
        '/v1/billing/credits',
        { ...live, body: { pack: 'small', payment_token: 'tok_chargeDeclinedExpiredCard' } },
      ],
      [
        'POST',
        '/v1/billing/credits',
        '/v1/billing/credits',
        { ...live, body: { pack: 'small', payment_token: 'tok_processingError' } },
      ],
      [
        'POST',
        '/v1/billing/credits',
        '/v1/billing/credits',
        { ...live, body: { pack: 'nope', payment_token: 'tok_visa' } },
      ],
      ['GET', '/v1/billing/history', '/v1/billing/history', live],
      ['GET', '/v1/audit/credits', '/v1/audit/credits', live],
      ['GET', '/v1/audit/credits', '/v1/audit/credits', {}],
    ];
    for (const [method, url, template, options] of exchanges)
      checker.check(method, template, await request(app, method, url, options));
  });
});
