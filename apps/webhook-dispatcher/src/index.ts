export { startDispatcher } from './start-dispatcher';
export { DISPATCHER_CONSUMER } from './domain-event-log.consumer';
