import { CreateAlertUrgenciesAndFields1732300002000 } from './1732300002000-create-alert-urgencies-and-fields';
import { CreateAlerts1732300002100 } from './1732300002100-create-alerts';
import { CreateAlertSources1732300002200 } from './1732300002200-create-alert-sources';
import { AddAlertSourceIds1732300002300 } from './1732300002300-add-alert-source-ids';
import { CreateAlertReceipts1732300002400 } from './1732300002400-create-alert-receipts';
import { AlertListFilters1732300002500 } from './1732300002500-alert-list-filters';
import { AddAlertIncidentIds1732300002600 } from './1732300002600-add-alert-incident-ids';
import { AlertEventSourceAndUser1732300002700 } from './1732300002700-alert-event-source-and-user';
import { AlertShortIdLookup1732300002800 } from './1732300002800-alert-short-id-lookup';
import { CreateAlertPaging1732300002900 } from './1732300002900-create-alert-paging';
import { AlertSourceRoutingKeys1732300002930 } from './1732300002930-alert-source-routing-keys';
import { CreateHeartbeats1732300002910 } from './1732300002910-create-heartbeats';
import { AlertFieldValues1732300002920 } from './1732300002920-alert-field-values';
import { CreateAlertRoutes1732300002940 } from './1732300002940-create-alert-routes';
import { CreateAlertRoutingRules1732300002945 } from './1732300002945-create-alert-routing-rules';
import { AlertRoutingSettings1732300002948 } from './1732300002948-alert-routing-settings';
import { CreateAlertGroups1732300002960 } from './1732300002960-create-alert-groups';

export const ALERTING_MIGRATIONS = [CreateAlertUrgenciesAndFields1732300002000, CreateAlerts1732300002100, CreateAlertSources1732300002200, AddAlertSourceIds1732300002300, CreateAlertReceipts1732300002400, AlertListFilters1732300002500, AddAlertIncidentIds1732300002600, AlertEventSourceAndUser1732300002700, AlertShortIdLookup1732300002800, CreateAlertPaging1732300002900, CreateHeartbeats1732300002910, AlertFieldValues1732300002920, AlertSourceRoutingKeys1732300002930, CreateAlertRoutes1732300002940, CreateAlertRoutingRules1732300002945, AlertRoutingSettings1732300002948, CreateAlertGroups1732300002960];
