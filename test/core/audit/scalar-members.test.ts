import { expect } from 'chai';
import { canonicalJson } from '../../../core/events/canonical-json.js';
import { scalarMembers } from '../../../core/audit/scalar-members.js';

const names = ['credits', 'mode', 'released', 'amount', 'currency'];

describe("reading the named members of a credit event's stored data", () => {
  it('reads them from canonical JSON as JSON.parse would, stepping over members it was not asked for', () => {
    const data = {
      credits: 3,
      key_id: 'key "1"',
      mode: 'live',
      reason: 'fail\\ed',
      released: 6.5,
      amount: -1e21,
      currency: 'EUR\u00e9\n',
      tables: [{ credits: 99, name: 'a]}"b', rows: [1, { mode: 'test' }] }],
      flag: true,
      none: null,
    };
    const parsed = JSON.parse(canonicalJson(data)) as Record<string, unknown>;
    expect(scalarMembers(canonicalJson(data), names)).to.deep.equal({
      amount: parsed.amount,
      credits: 3,
      currency: 'EUR\u00e9\n',
      mode: 'live',
      released: 6.5,
    });
    expect(scalarMembers('{}', names)).to.deep.equal({});
  });

  it('reads text with no escape anywhere (as good as all of it, read without looking for one) as JSON.parse would', () => {
    const text = canonicalJson({
      amount: 12,
      credits: 3,
      mode: 'live',
      reference: 'r1',
      tables: [{ credits: 99, name: 'a]}b', rows: [1, { mode: 'test' }] }],
    });
    expect(text).to.not.include('\\');
    expect(scalarMembers(text, names)).to.deep.equal({ amount: 12, credits: 3, mode: 'live' });
  });

  it('leaves out a named member whose value is an object or array', () => {
    expect(scalarMembers('{"credits":[3],"mode":"live"}', names)).to.deep.equal({ mode: 'live' });
  });

  it('declines text it cannot read exactly, for the caller to parse whole', () => {
    for (const text of [
      '{ "credits": 3 }', // whitespace
      '{"cr\\u0065dits":3}', // an escaped key
      '{"credits":3}x', // more after the object
      '{"credits":3', // an object that never closes
      '{"credits":03}', // not a JSON number
      '{"credits":"3}', // a string that never closes
      '{"credits":3,"credits":[1]}', // a repeated key whose last value is not kept
      '[1]',
    ]) {
      expect(scalarMembers(text, names), text).to.equal(null);
    }
  });
});
