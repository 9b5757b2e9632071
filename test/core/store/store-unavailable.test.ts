import { expect } from 'chai';
import pg from 'pg';
import { isStoreUnavailable } from '../../../core/store/store-unavailable.js';
import { WrongExpectedRevisionError } from '../../../core/store/event-store.js';

/** An error as pg's protocol parser builds one from the server's ErrorResponse. */
const serverError = (code: string, message: string) =>
  Object.assign(new pg.DatabaseError(message, 0, 'error'), { code });

describe('isStoreUnavailable', () => {
  it('knows a server that is going away, starting, full or out of time', () => {
    expect(isStoreUnavailable(serverError('57P01', 'terminating connection due to administrator command'))).to.equal(
      true,
    );
    expect(isStoreUnavailable(serverError('57P03', 'the database system is starting up'))).to.equal(true);
    expect(isStoreUnavailable(serverError('08006', 'connection failure'))).to.equal(true);
    expect(isStoreUnavailable(serverError('53300', 'sorry, too many clients already'))).to.equal(true);
    expect(isStoreUnavailable(serverError('57014', 'canceling statement due to statement timeout'))).to.equal(true);
  });

  it("knows pg's own errors of a lost, refused or silent connection, also as a cause", async () => {
    const refused = await new pg.Client({ host: '127.0.0.1', port: 1, connectionTimeoutMillis: 2000 }).connect().then(
      () => null,
      (error: unknown) => error,
    );
    expect(isStoreUnavailable(refused)).to.equal(true);
    expect(isStoreUnavailable(new Error('Connection terminated unexpectedly'))).to.equal(true);
    expect(isStoreUnavailable(new Error('Query read timeout'))).to.equal(true);
    expect(isStoreUnavailable(new Error('timeout exceeded when trying to connect'))).to.equal(true);
    expect(isStoreUnavailable(new Error('the append failed', { cause: refused }))).to.equal(true);
  });

  it('leaves every other error to be an internal error', () => {
    expect(isStoreUnavailable(serverError('23505', 'duplicate key value violates unique constraint'))).to.equal(false);
    expect(isStoreUnavailable(serverError('42P01', 'relation "events" does not exist'))).to.equal(false);
    expect(isStoreUnavailable(new WrongExpectedRevisionError('account-1', 3, 4))).to.equal(false);
    expect(isStoreUnavailable(new TypeError("Cannot read properties of undefined (reading 'position')"))).to.equal(
      false,
    );
    expect(isStoreUnavailable(Object.assign(new Error('no such file'), { code: 'ENOENT', syscall: 'open' }))).to.equal(
      false,
    );
    expect(isStoreUnavailable('Connection terminated')).to.equal(false);
  });
});
