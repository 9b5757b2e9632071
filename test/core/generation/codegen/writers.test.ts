import { expect } from 'chai';
import fc from 'fast-check';
import { definePack } from '../../../../core/packs/sdk.js';
import { ByteSink } from '../../../../core/generation/codegen/byte-sink.js';
import { writeFixed, writeIsoTimestamp, writeNumber } from '../../../../core/generation/codegen/cell-bytes.js';
import { PlanRuntime } from '../../../../core/generation/runtime.js';
import { formatFixed, isoTimestamp } from '../../../../core/generation/types/time-format.js';
import { FORMATS, tableWriter } from '../../../../core/generation/codegen/writers.js';
import { generateInline, planFor } from '../support.js';

const awkward = definePack({
  name: 'awkward',
  version: '1.0.0',
  description: 'Values that writers must escape.',
  tables: {
    notes: {
      description: 'Notes with commas, quotes, line breaks and non-ASCII text.',
      default_rows: 4,
      credits_per_1000_rows: 1,
      columns: {
        note_id: { type: 'id', prefix: 'note', description: 'Key.' },
        text: { type: 'string', description: 'Free text.' },
        price: { type: 'money', currency: 'KWD', min: 1, max: 2, description: 'Three minor units.' },
        yen: { type: 'money', currency: 'JPY', min: 100, max: 200, description: 'No minor units.' },
        flag: { type: 'boolean', nullable: true, description: 'Maybe.' },
      },
      row: (ctx) => ({
        text: ['plain', 'a, b', 'say "hi"', 'line\nbreak\r\nand ü€'][ctx.index % 4],
        flag: ctx.index % 2 ? null : true,
      }),
    },
  },
});

describe('the writers', () => {
  const plan = planFor(awkward, { seed: 9, tables: [{ name: 'notes', rows: 4 }] });

  it('writes CSV by RFC 4180: header, CRLF, quoted fields with doubled quotes, empty for null', () => {
    const lines = generateInline(awkward, plan, 'notes', 'csv').split('\r\n');
    expect(lines[0]).to.equal('note_id,text,price,yen,flag');
    expect(lines[1]).to.match(/^note_[0-9a-f]{16},plain,1\.\d{3},1\d\d,true$/);
    expect(lines[2]).to.match(/^note_[0-9a-f]{16},"a, b",1\.\d{3},1\d\d,$/);
    expect(lines[3]).to.match(/^note_[0-9a-f]{16},"say ""hi""",/);
    expect(generateInline(awkward, plan, 'notes', 'csv')).to.contain('"line\nbreak\r\nand ü€"');
  });

  it("writes NDJSON and JSON that parse back to the same values, money with its currency's minor units", () => {
    const ndjson = generateInline(awkward, plan, 'notes', 'ndjson');
    const fromLines = ndjson
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(fromLines.map((row) => row.text)).to.deep.equal(['plain', 'a, b', 'say "hi"', 'line\nbreak\r\nand ü€']);
    expect(ndjson).to.match(/"price":1\.\d{3},"yen":1\d\d,/);
    expect(JSON.parse(generateInline(awkward, plan, 'notes', 'json'))).to.deep.equal(fromLines);
    const empty = planFor(awkward, { seed: 9, tables: [{ name: 'notes', rows: 0 }] });
    expect(generateInline(awkward, empty, 'notes', 'json')).to.equal('[]\n');
    expect(generateInline(awkward, empty, 'notes', 'csv')).to.equal('note_id,text,price,yen,flag\r\n');
  });

  it('formats instants exactly as Date#toISOString, faster', () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_000_000_000_000, max: 253_402_300_799_999 }), (ms) => {
        expect(isoTimestamp(ms)).to.equal(new Date(ms).toISOString());
      }),
      { numRuns: 5000 },
    );
  });

  it('writes the same text into bytes as the string formatters: instants, fixed-point money, numbers', () => {
    // As the row writer calls them: room made, the position after the cell returned (or -1 when written
    // through the sink).
    const written = (write: (out: ByteSink, buffer: Uint8Array, at: number) => number) => {
      const out = new ByteSink(64);
      out.ascii('>');
      const end = write(out, out.buffer, out.length);
      if (end >= 0) out.length = end;
      return new TextDecoder().decode(out.bytes()).slice(1);
    };
    fc.assert(
      fc.property(
        fc.integer({ min: -62_000_000_000_000, max: 253_402_300_799_999 }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (ms, fraction) => {
          expect(written((out, buffer, at) => writeIsoTimestamp(out, buffer, at, ms + fraction))).to.equal(
            isoTimestamp(ms + fraction),
          );
        },
      ),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(
        fc.double({ min: -1e12, max: 1e12, noNaN: true }),
        fc.integer({ min: 0, max: 4 }),
        (value, digits) => {
          expect(written((out, buffer, at) => writeFixed(out, buffer, at, value, digits))).to.equal(
            formatFixed(value, digits),
          );
        },
      ),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.oneof(fc.maxSafeInteger(), fc.double({ noNaN: true })), (value) => {
        expect(written((out, buffer, at) => writeNumber(out, buffer, at, value))).to.equal(String(value));
      }),
      { numRuns: 5000 },
    );
  });

  it('writes a timestamp column given as ms since the epoch as its ISO 8601 text, in every format', () => {
    const instants = definePack({
      name: 'instants',
      version: '1.0.0',
      description: 'A timestamp given as a number.',
      tables: {
        events: {
          description: 'Events.',
          default_rows: 2,
          credits_per_1000_rows: 1,
          columns: {
            at: { type: 'timestamp', from: '2025-01-01T00:00:00Z', to: '2025-12-31T00:00:00Z', description: 'When.' },
          },
          row: (ctx) => ({ at: Date.UTC(2025, 2, 14, 9, 26, 53, 589) + ctx.index + 0.5 }),
        },
      },
    });
    const twoRows = planFor(instants, { seed: 1, tables: [{ name: 'events', rows: 2 }] });
    expect(generateInline(instants, twoRows, 'events', 'ndjson')).to.equal(
      '{"at":"2025-03-14T09:26:53.589Z"}\n{"at":"2025-03-14T09:26:53.590Z"}\n',
    );
    expect(generateInline(instants, twoRows, 'events', 'csv')).to.equal(
      'at\r\n2025-03-14T09:26:53.589Z\r\n2025-03-14T09:26:53.590Z\r\n',
    );
  });

  it('writes the same bytes wherever in a row the buffer runs out of room, slow paths included', () => {
    const mixed = definePack({
      name: 'mixed',
      version: '1.0.0',
      description: 'Every kind of cell, fast and slow.',
      tables: {
        cells: {
          description: 'Cells.',
          default_rows: 8,
          credits_per_1000_rows: 1,
          columns: {
            cell_id: { type: 'id', prefix: 'cell', description: 'Key.' },
            text: { type: 'string', description: 'Free text.' },
            price: { type: 'money', currency_column: 'currency', min: 1, max: 1e6, description: 'Money.' },
            currency: { type: 'currency', codes: ['EUR', 'JPY', 'KWD'], description: 'Currency.' },
            at: { type: 'timestamp', from: '2025-01-01T00:00:00Z', to: '2025-12-31T00:00:00Z', description: 'When.' },
            ratio: { type: 'decimal', min: 0, max: 1, description: 'Not an integer.' },
            flag: { type: 'boolean', nullable: true, description: 'Maybe.' },
          },
          row: (ctx) => ({
            text: ['plain', 'a, b', 'say "hi"', 'line\nbreak and ü€', 'x'.repeat(300)][ctx.index % 5],
            at: [Date.UTC(2025, 2, 14, 9, 26, 53, 589), 4e14, '2025-03-14T09:26:53.589Z'][ctx.index % 3],
            flag: ctx.index % 2 ? null : true,
          }),
        },
      },
    });
    const rows = 8;
    const runtime = new PlanRuntime(mixed, planFor(mixed, { seed: 3, tables: [{ name: 'cells', rows }] }));
    const table = runtime.table('cells');
    for (const format of FORMATS) {
      const writer = tableWriter(table.columns, format);
      const roomy = new ByteSink(1 << 16);
      for (let index = 0; index < rows; index++) writer.row(roomy, table.flatRow(index, true), index);
      const expected = new TextDecoder().decode(roomy.bytes());
      // A sink of 64 bytes filled to `used` first: the row meets the end of the buffer at every cell in turn.
      for (let used = 0; used < 64; used++) {
        const out = new ByteSink(64);
        out.ascii('-'.repeat(used));
        for (let index = 0; index < rows; index++) writer.row(out, table.flatRow(index, true), index);
        expect(new TextDecoder().decode(out.bytes()).slice(used), `${format}, ${used} bytes used`).to.equal(expected);
      }
    }
  });

  it('formats fixed-point numbers to the value rounded at that many digits', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), fc.integer({ min: 0, max: 4 }), (value, digits) => {
        expect(Number(formatFixed(value, digits))).to.be.closeTo(
          (Math.round(Math.abs(value) * 10 ** digits) / 10 ** digits) * Math.sign(value),
          10 ** -digits / 2 + 1e-9,
        );
        expect(formatFixed(value, digits)).to.match(digits ? new RegExp(`^-?\\d+\\.\\d{${digits}}$`) : /^-?\d+$/);
      }),
      { numRuns: 3000 },
    );
  });
});
