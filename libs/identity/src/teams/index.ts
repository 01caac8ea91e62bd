export { teamSchema, MEMBERSHIP_ATTRIBUTES } from './team.schema';
export { TeamsModule } from './teams.module';
export { GROUP_EVENTS } from './teams.service';
