import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const entry = fileURLToPath(new URL('../../../core/generation/worker-entry.mjs', import.meta.url));

describe("the generation pool's worker entry", () => {
  it('loads through require(), as piscina first loads it: no top-level await, whose failure could crash Node 20', async () => {
    // A plain Node process, as a worker thread starts: require() of a module with a top-level await is refused
    // (ERR_REQUIRE_ASYNC_MODULE), and the import() piscina then tries can race it.
    const script = `
      try {
        const entry = require(${JSON.stringify(entry)});
        console.log(JSON.stringify(['default', 'countParentsOf', 'warmUp'].map((name) => typeof entry[name])));
      } catch (error) {
        console.log(JSON.stringify(error.code));
      }`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script]);
    expect(JSON.parse(stdout)).to.deep.equal(['function', 'function', 'function']);
  });
});
