import { expect, test } from '@jest/globals';
import { isTransientFailure } from './transient-failure';

const coded = (code: string, message = code) => Object.assign(new Error(message), { code });

test('the database or the broker away is transient, wherever it is wrapped', () => {
  for (const error of [
    coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
    coded('ECONNRESET'),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
    coded('57P01', 'terminating connection due to administrator command'),
    coded('57P03', 'the database system is starting up'),
    coded('08006'),
    coded('53300', 'sorry, too many clients already'),
    coded('40001'),
    coded('40P01', 'deadlock detected'),
    // TypeORM's QueryFailedError keeps the driver's error; Error's cause and AggregateError too.
    Object.assign(new Error('QueryFailedError'), { driverError: coded('57P01') }),
    new Error('outer', { cause: coded('ECONNREFUSED') }),
    new AggregateError([coded('ECONNREFUSED')], 'connect failed'),
    Object.assign(new Error('Connection error: connect ECONNREFUSED'), { name: 'KafkaJSConnectionError', retriable: true }),
    Object.assign(new Error('retries exceeded'), { name: 'KafkaJSNumberOfRetriesExceeded', originalError: { name: 'KafkaJSRequestTimeoutError' } }),
  ]) {
    expect([String(error), isTransientFailure(error)]).toEqual([String(error), true]);
  }
});

test('a failure that repeats on the same input is not transient', () => {
  for (const error of [
    new Error('payload.title must be a string'),
    new TypeError("Cannot read properties of undefined (reading 'id')"),
    coded('23505', 'duplicate key value violates unique constraint'),
    coded('22P02', 'invalid input syntax for type uuid'),
    coded('42601', 'syntax error'),
    coded('ERR_INVALID_ARG_TYPE'),
    Object.assign(new Error('not retriable'), { name: 'KafkaJSProtocolError', retriable: false }),
    null,
    'a string',
  ]) {
    expect([String(error), isTransientFailure(error)]).toEqual([String(error), false]);
  }
});
