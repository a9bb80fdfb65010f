import { dependencyFailure } from '../../../api/http/dependency-errors';

const sys = (code: string, extra: object = {}) =>
  Object.assign(new Error(`connect ${code} 10.0.0.5:5432`), { code, errno: -111, syscall: 'connect', address: '10.0.0.5', port: 5432, ...extra });

describe('dependency failures are told apart from client mistakes and from bugs', () => {
  it('a knex pool timeout is the database', () => {
    const e = Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' });
    expect(dependencyFailure(e)).toMatchObject({ dependency: 'database', reason: 'connection timeout' });
  });

  it('a connection that node-postgres lost is the database, also behind the SQL knex prefixes', () => {
    expect(dependencyFailure(new Error('select 1 - Connection terminated unexpectedly'))).toMatchObject({
      dependency: 'database',
      cause: 'Connection terminated',
    });
    expect(dependencyFailure(new Error('Connection terminated due to connection timeout'))).toMatchObject({ dependency: 'database' });
  });

  it.each(['08006', '57P01', '57P03', '53300', '57014', '40001', '40P01'])('SQLSTATE %s passes, so it is a 503', (code) => {
    const e = Object.assign(new Error('server says no'), { code, severity: 'FATAL' });
    expect(dependencyFailure(e)).toMatchObject({ dependency: 'database', reason: `SQLSTATE ${code}` });
  });

  it.each(['23505', '42P01', '22P02'])('SQLSTATE %s is a bug or a bad value, not an outage', (code) => {
    expect(dependencyFailure(Object.assign(new Error('x'), { code, severity: 'ERROR' }))).toBeUndefined();
  });

  it('a refused or reset socket is an upstream outage; the public reason names no address', () => {
    const f = dependencyFailure(sys('ECONNREFUSED'));
    expect(f).toEqual({ dependency: 'upstream service', cause: 'ECONNREFUSED 10.0.0.5:5432', reason: 'ECONNREFUSED' });
    expect(dependencyFailure(sys('ECONNRESET'))?.reason).toBe('ECONNRESET');
  });

  it('gRPC UNAVAILABLE or DEADLINE_EXCEEDED from Temporal, wrapped in a ServiceError, is the workflow service', () => {
    const grpc = Object.assign(new Error('14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED 127.0.0.1:7233'), {
      code: 14,
      details: 'No connection established. Last error: connect ECONNREFUSED 127.0.0.1:7233',
      metadata: {},
    });
    const wrapped = Object.assign(new Error('Failed to start Workflow'), { name: 'ServiceError', cause: grpc });
    expect(dependencyFailure(wrapped)).toMatchObject({ dependency: 'workflow service', reason: 'UNAVAILABLE' });
    expect(dependencyFailure(Object.assign(new Error('4 DEADLINE_EXCEEDED'), { code: 4, details: 'Deadline exceeded', metadata: {} }))).toMatchObject({
      reason: 'DEADLINE_EXCEEDED',
    });
  });

  it('looks into AggregateError (Node tries every address of a name)', () => {
    expect(dependencyFailure(new AggregateError([sys('ECONNREFUSED')], 'all failed'))).toMatchObject({ reason: 'ECONNREFUSED' });
  });

  it('anything else is not a dependency failure', () => {
    expect(dependencyFailure(new TypeError('x is undefined'))).toBeUndefined();
    expect(dependencyFailure(Object.assign(new Error('bad request'), { status: 400, errors: [{ path: '.query.x' }] }))).toBeUndefined();
    expect(dependencyFailure(undefined)).toBeUndefined();
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    expect(dependencyFailure(loop)).toBeUndefined();
  });
});
