import { expect } from 'chai';
import { routeGroups } from '../../api/app.js';
import { configSchema } from '../../core/configs/config-schema.js';
import { overlaySchema } from '../../core/configs/overlay-schema.js';
import {
  BoundedValidator,
  isCheckedInFull,
  MAX_REPORTED_ERRORS,
  MAX_VALUES_CHECKED_IN_FULL,
  reportErrors,
} from '../../core/bounded-validation.js';

describe('bounded validation', () => {
  it('checks in full a document of at most MAX_VALUES_CHECKED_IN_FULL values, the root and every member and item counted', () => {
    const wide = (members: number) =>
      Object.fromEntries(Array.from({ length: members }, (_, index) => [`m${index}`, index]));
    expect(isCheckedInFull(wide(MAX_VALUES_CHECKED_IN_FULL - 1))).to.equal(true);
    expect(isCheckedInFull(wide(MAX_VALUES_CHECKED_IN_FULL))).to.equal(false);
    expect(isCheckedInFull({ a: Array.from({ length: MAX_VALUES_CHECKED_IN_FULL - 2 }, () => null) })).to.equal(true);
    expect(isCheckedInFull({ a: Array.from({ length: MAX_VALUES_CHECKED_IN_FULL - 1 }, () => null) })).to.equal(false);
    expect(isCheckedInFull('text')).to.equal(true);
  });

  it('reports the first MAX_REPORTED_ERRORS, and says when it did not report them all', () => {
    const errors = Array.from({ length: MAX_REPORTED_ERRORS + 5 }, (_, index) => index);
    expect(reportErrors({ errors: errors.slice(0, 3), complete: true })).to.deep.equal({ errors: [0, 1, 2] });
    expect(reportErrors({ errors, complete: true })).to.deep.equal({
      errors: errors.slice(0, MAX_REPORTED_ERRORS),
      errors_truncated: true,
      errors_total: MAX_REPORTED_ERRORS + 5,
    });
    expect(reportErrors({ errors: [0], complete: false })).to.deep.equal({ errors: [0], errors_truncated: true });
  });

  it('finds every error of a small document, and the first of a large one', () => {
    const check = new BoundedValidator().compile({
      type: 'object',
      additionalProperties: false,
      properties: { a: { type: 'integer' } },
    });
    expect(check({ a: 1 })).to.equal(null);
    const small = check({ a: 'x', b: 1, c: 2 })!;
    expect(small.complete).to.equal(true);
    expect(small.errors.map((error) => error.keyword).sort()).to.deep.equal([
      'additionalProperties',
      'additionalProperties',
      'type',
    ]);
    const large = check({
      a: 'x',
      ...Object.fromEntries(Array.from({ length: MAX_VALUES_CHECKED_IN_FULL }, (_, index) => [`m${index}`, 0])),
    })!;
    expect(large.complete).to.equal(false);
    expect(large.errors).to.have.length(1);
  });

  it('checks the uniqueness of every list a request or a config may hold with an index: its items have a scalar type', () => {
    const schemas: unknown[] = [configSchema, overlaySchema];
    for (const route of routeGroups.flatMap((group) => group.routes))
      schemas.push(route.params, route.query, route.body?.content);
    const unindexed: string[] = [];
    const seen = new Set<unknown>();
    const pending = schemas.map((schema) => ({ schema, at: '' }));
    while (pending.length > 0) {
      const { schema, at } = pending.pop()!;
      if (schema === null || typeof schema !== 'object' || seen.has(schema)) continue;
      seen.add(schema);
      const node = schema as Record<string, unknown>;
      if (node.uniqueItems === true) {
        const types = [(node.items as { type?: string | string[] } | undefined)?.type ?? []].flat();
        if (types.length === 0 || types.some((type) => type === 'object' || type === 'array')) unindexed.push(at);
      }
      for (const [key, child] of Object.entries(node)) pending.push({ schema: child, at: `${at}/${key}` });
    }
    expect(seen.size).to.be.greaterThan(100);
    expect(unindexed).to.deep.equal([]);
  });
});
