export { OnCallModule } from './on-call.module';
