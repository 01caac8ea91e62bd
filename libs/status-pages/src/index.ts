export { StatusPagesModule } from './status-pages.module';
