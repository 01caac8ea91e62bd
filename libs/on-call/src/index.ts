export { OnCallModule } from './on-call.module';
export { ON_CALL_CONTEXT } from './on-call.context';
export * from './schedules/engine';
