export { AlertingModule } from './alerting.module';
