import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { openAccount, request, startTestApp, type TestAccount, type TestApp } from '../../support/app.js';
import type { DatasetReport } from '../../../core/reports/report.js';

const RULE_BREAKING_PACK = fileURLToPath(new URL('../../support/packs/rule-breaking/', import.meta.url));

describe('quick generation with "report": true, over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  let account: TestAccount;

  before(async () => {
    app = await startTestApp({ config: { packs: [RULE_BREAKING_PACK] } });
    account = await openAccount(app);
  });
  after(() => app?.close());

  it('answers the report of the rows beside them, naming what they break', async () => {
    const body = { sector: 'rulebreaking', seed: 4, tables: [{ name: 'entries', rows: 500 }], report: true };
    const answer = await request(app, 'POST', '/v1/generate/quick', { key: account.test, body });
    expect(answer.status, answer.text).to.equal(200);
    const report = answer.body.report as unknown as DatasetReport;
    expect(report.tables.map((table) => table.name)).to.deep.equal(['entries']);
    const entries = report.tables[0];
    expect(entries.rows).to.equal((answer.body.tables as Record<string, unknown[]>).entries.length);
    expect(entries.findings.map((finding) => finding.rule)).to.include.members(['iban-iso-13616', 'reference-orphan']);
    expect(entries.score).to.be.below(100);

    const plain = await request(app, 'POST', '/v1/generate/quick', {
      key: account.test,
      body: { ...body, report: false },
    });
    expect(plain.body).not.to.have.property('report');
    expect(plain.body.tables).to.deep.equal(answer.body.tables);
  });

  it('is 406 with a format that cannot hold it, before anything is generated', async () => {
    const body = { sector: 'rulebreaking', tables: [{ name: 'entries', rows: 10 }], report: true };
    const refused = await request(app, 'POST', '/v1/generate/quick', {
      key: account.live,
      body,
      headers: { accept: 'text/csv' },
    });
    expect(refused.status).to.equal(406);
    expect(refused.body.supported).to.deep.equal(['application/json']);
  });
});
