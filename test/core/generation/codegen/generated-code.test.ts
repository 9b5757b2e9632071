import { expect } from 'chai';
import { generatedFactory } from '../../../../core/generation/codegen/generated-code.js';

describe('generated code', () => {
  it('compiles a source once: the same text gives the same factory, whose closures keep their own arguments', () => {
    const body = 'return function add(x) { return x + k; };';
    const factory = generatedFactory(['k'], body);
    expect(generatedFactory(['k'], body)).to.equal(factory);
    const [one, two] = [factory(1), factory(2)] as ((x: number) => number)[];
    expect([one(10), two(10)]).to.deep.equal([11, 12]);
  });

  it('compiles another body or parameter list apart', () => {
    const factory = generatedFactory(['k'], 'return k;');
    expect(generatedFactory(['k'], 'return -k;')).to.not.equal(factory);
    expect(generatedFactory(['j'], 'return k;')).to.not.equal(factory);
    expect(generatedFactory(['k'], 'return -k;')(3)).to.equal(-3);
  });
});
