import { CreateStatusPages1732300009000 } from './1732300009000-create-status-pages';

export const STATUS_PAGES_MIGRATIONS = [CreateStatusPages1732300009000];
