import { CreateDashboards1732300010100 } from './1732300010100-create-dashboards';

export const ANALYTICS_MIGRATIONS = [CreateDashboards1732300010100];
