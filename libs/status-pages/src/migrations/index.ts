import { CreateStatusPages1732300009000 } from './1732300009000-create-status-pages';
import { CreateStatuses1732300009010 } from './1732300009010-create-statuses';
import { CreateStatusPageTemplates1732300009020 } from './1732300009020-create-status-page-templates';
import { CreateStatusPageGroups1732300009030 } from './1732300009030-create-status-page-groups';
import { CreateStatusPageComponents1732300009100 } from './1732300009100-create-status-page-components';
import { CreateStatusPageAnnouncements1732300009140 } from './1732300009140-create-status-page-announcements';
import { CreateVerifiedDomains1732300009170 } from './1732300009170-create-verified-domains';
import { CreateIncidentStatusPageEvents1732300009200 } from './1732300009200-create-incident-status-page-events';
import { HashStatusPagePasswords1732300009300 } from './1732300009300-hash-status-page-passwords';

/** In timestamp order; each part of the context adds its own lines. */
export const STATUS_PAGES_MIGRATIONS = [
  CreateStatusPages1732300009000,
  CreateStatuses1732300009010,
  CreateStatusPageTemplates1732300009020,
  CreateStatusPageGroups1732300009030,
  CreateStatusPageComponents1732300009100,
  CreateStatusPageAnnouncements1732300009140,
  CreateVerifiedDomains1732300009170,
  CreateIncidentStatusPageEvents1732300009200,
  HashStatusPagePasswords1732300009300,
];
