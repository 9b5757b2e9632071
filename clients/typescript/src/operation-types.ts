import type { operations } from './schema.js';

/** An operation of the generated document, by its operationId. */
export type OperationId = keyof operations;

/** The JSON body an operation takes. */
export type JsonBodyOf<Id extends OperationId> = operations[Id] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/** The query parameters an operation takes. */
export type QueryOf<Id extends OperationId> = operations[Id] extends { parameters: { query?: infer Query } }
  ? NonNullable<Query>
  : never;

type JsonOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON body of an operation's success answer (200, 201 or 202). */
export type AnswerOf<Id extends OperationId> = operations[Id]['responses'] extends infer Responses
  ? Responses extends { 200: infer Ok }
    ? JsonOf<Ok>
    : Responses extends { 201: infer Created }
      ? JsonOf<Created>
      : Responses extends { 202: infer Accepted }
        ? JsonOf<Accepted>
        : never
  : never;
