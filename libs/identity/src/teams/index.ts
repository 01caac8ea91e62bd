export { teamSchema, MEMBERSHIP_ATTRIBUTES } from './team.schema';
export { TeamsModule } from './teams.module';
