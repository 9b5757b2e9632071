import { DeadlineExceededError, UnavailableError } from '@kurrent/kurrentdb-client';
import { Problems, problem, type ProblemError } from '../problems.js';

/** What a client is told to wait before retrying a request that met the store unavailable. */
export const STORE_RETRY_AFTER_SECONDS = 2;

/**
 * SQLSTATEs of a server that is going away, starting, or out of time: class 08 (connection exception),
 * admin and crash shutdown, "the database system is starting up", too many connections, and a statement
 * cancelled by the statement timeout.
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300|57014)$/;

/** Socket errors of a connection that could not be made or was lost. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/** pg's own errors for a connection that is lost, cannot be opened in time, or does not answer in time. */
const PG_CONNECTION_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'timeout expired',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
]);

/**
 * Whether an error means that the store's server is unreachable, going away or frozen, rather than a
 * fault of the request or of the code: what the API answers with 503 and Retry-After. Errors wrapped
 * as a `cause` are looked through.
 */
export function isStoreUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth++) {
    if (current instanceof UnavailableError || current instanceof DeadlineExceededError) return true;
    const code = 'code' in current && typeof current.code === 'string' ? current.code : undefined;
    if (code !== undefined && (UNAVAILABLE_SQLSTATE.test(code) || SOCKET_CODES.has(code))) return true;
    // A unix socket that is not there: the server is not running.
    if (code === 'ENOENT' && 'syscall' in current && current.syscall === 'connect') return true;
    if (PG_CONNECTION_MESSAGES.has(current.message)) return true;
  }
  return false;
}

/** The 503 answered for a request that met the store unavailable. */
export function storeUnavailableProblem(): ProblemError {
  return problem(
    Problems.storeUnavailable,
    `the event store cannot be reached or does not answer in time; retry in ${STORE_RETRY_AFTER_SECONDS} s`,
    {},
    { 'Retry-After': String(STORE_RETRY_AFTER_SECONDS) },
  );
}
