import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import '../../api/app.js';
import '../../cli/audit.js';
import { allProblemTypes } from '../../core/problems.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The README is the operator's reference: it must not fall behind the code. */
describe('the README', () => {
  const readme = read('README.md');
  const section = (title: string) =>
    readme.slice(readme.indexOf(`## ${title}`), readme.indexOf('\n## ', readme.indexOf(`## ${title}`) + 1));

  it('lists every problem slug in its errors table', () => {
    const errors = section('Errors');
    const missing = allProblemTypes().filter((type) => !errors.includes(`| \`${type.slug}\` | ${type.status} |`));
    expect(missing.map((type) => type.slug)).to.deep.equal([]);
  });

  it('lists every environment variable that core/settings/settings.ts reads', () => {
    // Read through `setting('NAME')`, which treats a variable set to nothing as unset.
    const variables = [...read('core/settings/settings.ts').matchAll(/setting\('([A-Z_]+)'\)/g)].map(
      (match) => match[1]!,
    );
    expect(variables.length).to.be.greaterThan(5);
    const configuration = section('Configuration');
    expect(variables.filter((variable) => !configuration.includes(`\`${variable}\``))).to.deep.equal([]);
  });
});
