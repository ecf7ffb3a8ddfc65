/**
 * @sitelens/watch: watches as kept in Redis (records, results, snapshots, the owner's index), their
 * schedules on the parse queue and the e-mail confirmations a notification address needs. The
 * gateway's watch routes and the parse worker's watch checks both stand on it.
 */
export * from './watch-keys';
export * from './watch-store';
export * from './watch-schedule';
export * from './email-confirmations';
