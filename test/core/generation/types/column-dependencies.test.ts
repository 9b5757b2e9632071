import { expect } from 'chai';
import { columnDependencies, drawOrder } from '../../../../core/generation/types/column-dependencies.js';

const column = (name: string, ...dependsOn: string[]) => ({ name, dependsOn });
const names = (columns: { name: string }[]) => columns.map((c) => c.name);

describe('the draw order of a table’s columns', () => {
  it('reads the columns a column’s parameters name', () => {
    expect(columnDependencies({ country_column: 'country', name_column: 'name', min: 3 })).to.deep.equal([
      'country',
      'name',
    ]);
    expect(columnDependencies({ values: ['a'] })).to.deep.equal([]);
  });

  it('keeps the declared order when every column follows its dependencies', () => {
    const columns = [column('id'), column('country'), column('name', 'country'), column('email', 'name', 'country')];
    expect(names(drawOrder(columns))).to.deep.equal(['id', 'country', 'name', 'email']);
  });

  it('moves a dependency before the first column that needs it, and nothing else', () => {
    const columns = [column('id'), column('name', 'country'), column('email', 'name'), column('x'), column('country')];
    expect(names(drawOrder(columns))).to.deep.equal(['id', 'country', 'name', 'email', 'x']);
  });

  it('places each column once, ignoring names of no column and ending a cycle in declared order', () => {
    const columns = [column('a', 'b'), column('b', 'a'), column('c', 'nowhere')];
    expect(names(drawOrder(columns))).to.deep.equal(['b', 'a', 'c']);
  });
});
