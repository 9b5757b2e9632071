import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPack } from 'finsynth/test-kit';

const pack = new URL('..', import.meta.url);

test('passes the finsynth pack test kit', async () => {
  const report = await checkPack(pack, { rows: 800 });
  assert.equal(report.pack, 'loyalty');
  assert.equal(report.tables.movements.rows, 800);
});
