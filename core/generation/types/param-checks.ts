import { createAjv } from '../../json-schema.js';
import { dataTypes } from './index.js';

/*
 * Column parameters checked against their type's schema: what the manifest checks at load and the plan
 * builder checks for a config's overrides. Apart from params.ts, so that workers never load the validator.
 */
const ajv = createAjv();
const typeParamValidators = new Map(
  dataTypes.map((type) => [
    type.name,
    ajv.compile({
      type: 'object',
      ...type.params,
      additionalProperties: false,
      properties: { ...((type.params.properties as object) ?? {}) },
    }),
  ]),
);
/** A computed column's parameters: those it gives must be valid (a money column's currency), none is required. */
const computedParamValidators = new Map(
  dataTypes.map((type) => [
    type.name,
    ajv.compile({
      type: 'object',
      additionalProperties: false,
      properties: { ...((type.params.properties as object) ?? {}) },
    }),
  ]),
);

/** Why the parameters are not valid for the type (empty when they are); computed columns need no drawing parameters. */
export function checkColumnParams(
  typeName: string,
  params: Record<string, unknown>,
  { computed = false } = {},
): string[] {
  const validate = (computed ? computedParamValidators : typeParamValidators).get(typeName);
  if (!validate) return [`unknown type "${typeName}"`];
  if (validate(params)) return [];
  return (validate.errors ?? []).map((error) => {
    const property =
      error.params && 'additionalProperty' in error.params ? ` "${error.params.additionalProperty}"` : '';
    return `${error.instancePath || 'parameters'} ${error.message}${property}`;
  });
}
