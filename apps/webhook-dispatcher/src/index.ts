export { startDispatcher } from './start-dispatcher';
export { DISPATCHER_CONSUMER, DISPATCHER_CONTRACT } from './webhook-fan-out.consumer';
