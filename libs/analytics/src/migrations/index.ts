import { CreateDashboards1732300010100 } from './1732300010100-create-dashboards';
import { CreateAuthorizations1732300011200 } from './1732300011200-create-authorizations';

export const ANALYTICS_MIGRATIONS = [CreateDashboards1732300010100, CreateAuthorizations1732300011200];
