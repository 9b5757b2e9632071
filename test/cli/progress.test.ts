import { expect } from 'chai';
import { Progress } from '../../cli/progress.js';

/** A stream that keeps what is written, a terminal or not, on a clock the test moves. */
function stream(isTTY: boolean) {
  const written: string[] = [];
  return { written, out: { isTTY, columns: 200, write: (text: string) => written.push(text) } };
}

describe('generation progress', () => {
  it('on a terminal, redraws one bar in place with rows, rows per second and the time left, then the file', () => {
    let now = 0;
    const { written, out } = stream(true);
    const progress = new Progress(out, { now: () => now });
    progress.start('transactions', 1_000_000);
    now = 2_000;
    progress.update(250_000);
    now = 2_050; // within the redraw interval: not drawn again
    progress.update(260_000);
    now = 4_000;
    progress.update(500_000);
    progress.finish('out/transactions.csv', 3 * 1024 * 1024);
    expect(written).to.have.length(4);
    expect(written[1]).to.match(
      new RegExp(String.raw`^\r\x1b\[2Ktransactions \[######-+\] 250,000/1,000,000 rows \(25%\)`),
    );
    expect(written[1]).to.contain('125,000 rows/s, 6 s left');
    expect(written[2]).to.contain('500,000/1,000,000 rows (50%), 125,000 rows/s, 4 s left');
    expect(written[3]).to.equal(
      '\r\x1b[2Ktransactions: 500,000 rows in 4.0 s (125,000 rows/s) → out/transactions.csv (3.0 MiB)\n',
    );
  });

  it('elsewhere, writes plain lines at most every few seconds; quiet, nothing', () => {
    let now = 0;
    const { written, out } = stream(false);
    const progress = new Progress(out, { now: () => now });
    progress.start('cards', 10_000);
    for (now = 1_000; now <= 12_000; now += 1_000) progress.update(now / 2);
    now = 12_000;
    progress.finish('cards.csv', 100);
    expect(written.join('')).not.to.contain('\r').and.not.to.contain('\x1b');
    expect(written).to.deep.equal([
      'cards: 10,000 rows\n',
      'cards: 2,500/10,000 rows (25%), 500 rows/s, 15 s left\n',
      'cards: 5,000/10,000 rows (50%), 500 rows/s, 10 s left\n',
      'cards: 6,000 rows in 12.0 s (500 rows/s) → cards.csv (100 B)\n',
    ]);
    const quiet = stream(false);
    const silent = new Progress(quiet.out, { quiet: true });
    silent.say('hello');
    silent.start('cards', 5);
    silent.update(5);
    silent.finish('cards.csv', 1);
    expect(quiet.written).to.deep.equal([]);
  });
});
