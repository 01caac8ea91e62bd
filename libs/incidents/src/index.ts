export { IncidentsModule } from './incidents.module';
