import { CreateSubStatusesAndIncidentRoles1732300001000 } from './1732300001000-create-sub-statuses-and-incident-roles';
import { CreateIncidents1732300001200 } from './1732300001200-create-incidents';
import { CreateIncidentRoleTasks1732300001100 } from './1732300001100-create-incident-role-tasks';
import { CreateActionItemsAndIncidentSubStatuses1732300001300 } from './1732300001300-create-action-items-and-incident-sub-statuses';
import { AddIncidentExternalIds1732300001400 } from './1732300001400-add-incident-external-ids';
import { AddIncidentZendeskTicketIds1732300001500 } from './1732300001500-add-incident-zendesk-ticket-ids';
import { CreateForms1732300009800 } from './1732300009800-create-forms';
import { CreateRetrospectives1732300010000 } from './1732300010000-create-retrospectives';
import { CreateMeetingRecordingsAndFeedbacks1732300010400 } from './1732300010400-create-meeting-recordings-and-feedbacks';
import { CreateSlasAndPlaybooks1732300010500 } from './1732300010500-create-slas-and-playbooks';
import { CreateIncidentPostMortems1732300010700 } from './1732300010700-create-incident-post-mortems';
import { CreateRetrospectiveConfigurationsAndIncidentSteps1732300010800 } from './1732300010800-create-retrospective-configurations-and-incident-steps';
import { AddIncidentColumnsToPostMortemsRead1732300010900 } from './1732300010900-add-incident-columns-to-post-mortems-read';
import { CreatePulses1732300011000 } from './1732300011000-create-pulses';
import { CreateCommunications1732300011100 } from './1732300011100-create-communications';

export const INCIDENTS_MIGRATIONS = [CreateSubStatusesAndIncidentRoles1732300001000, CreateIncidentRoleTasks1732300001100, CreateIncidents1732300001200, CreateActionItemsAndIncidentSubStatuses1732300001300, AddIncidentExternalIds1732300001400, AddIncidentZendeskTicketIds1732300001500, CreateForms1732300009800, CreateRetrospectives1732300010000, CreateMeetingRecordingsAndFeedbacks1732300010400, CreateSlasAndPlaybooks1732300010500, CreateIncidentPostMortems1732300010700, CreateRetrospectiveConfigurationsAndIncidentSteps1732300010800, AddIncidentColumnsToPostMortemsRead1732300010900, CreatePulses1732300011000, CreateCommunications1732300011100];
