import fc from 'fast-check';
import type { Operation, ParameterSpec } from '../support/documented.js';
import { arbitraryOf, type Hints } from '../support/schema-arbitrary.js';
import { isJsonMediaType, type Draft } from './draft.js';

/** A draft without its operation: what fast-check generates (and may shrink) for one operation. */
export type GeneratedDraft = Omit<Draft, 'operation'>;

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** Optional parameters of one place, each present or not, as name and text. */
function parameterList(parameters: ParameterSpec[], hints: Hints): fc.Arbitrary<Array<[string, string]>> {
  const model = Object.fromEntries(
    parameters.map((parameter) => [parameter.name, arbitraryOf(parameter.schema, hints, parameter.name)]),
  );
  const required = parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name);
  return fc
    .record(model, { requiredKeys: required })
    .map((values) => Object.entries(values).map(([name, value]) => [name, asText(value)] as [string, string]));
}

/**
 * Requests valid for the operation's schemas (path, query, headers, body in each documented media
 * type), with the key that `authorization` picks: the mutations start from these.
 */
export function draftArbitrary(
  operation: Operation,
  hints: Hints,
  authorization: fc.Arbitrary<string | undefined>,
): fc.Arbitrary<GeneratedDraft> {
  const parameters = operation.spec.parameters ?? [];
  const inPlace = (place: ParameterSpec['in']) => parameters.filter((parameter) => parameter.in === place);
  const params = fc.record(
    Object.fromEntries(
      inPlace('path').map((parameter) => [
        parameter.name,
        arbitraryOf(parameter.schema, hints, parameter.name).map(asText),
      ]),
    ),
  );
  const body = operation.spec.requestBody;
  const bodies: fc.Arbitrary<{ mediaType: string | undefined; body: unknown }> = body
    ? fc.oneof(
        ...Object.entries(body.content).map(([mediaType, { schema }]) => {
          const name = isJsonMediaType(mediaType) ? `body:${operation.id}` : 'body:yaml';
          return arbitraryOf(schema, hints, name).map((value) => ({ mediaType, body: value }));
        }),
      )
    : fc.constant({ mediaType: undefined, body: undefined });
  const optionalBody =
    body && !body.required ? fc.option(bodies, { nil: { mediaType: undefined, body: undefined } }) : bodies;
  return fc
    .record({
      params,
      query: parameterList(inPlace('query'), hints),
      headers: parameterList(inPlace('header'), hints),
      authorization,
      body: optionalBody,
    })
    .map(({ params: values, query, headers, authorization: key, body: chosen }) => ({
      params: values,
      rawParams: [],
      query,
      rawQuery: [],
      headers,
      authorization: key,
      mediaType: chosen.mediaType,
      body: chosen.body,
      fragments: [],
    }));
}
