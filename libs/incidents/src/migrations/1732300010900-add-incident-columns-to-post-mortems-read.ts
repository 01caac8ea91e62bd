import type { MigrationInterface, QueryRunner } from 'typeorm';
import { POST_MORTEMS_VIEW_COLUMNS as COLUMNS, POST_MORTEMS_VIEW_FROM as FROM } from './1732300010700-create-incident-post-mortems';

/**
 * The post mortems' list filters on their incident (docs/retrospectives.md, List): the view
 * `incident_post_mortems_read` also carries the incident's creator and its id lists the
 * reference's filters name (environments, functionalities, teams, incident types; severity and
 * services were there). Appended after the view's columns, so CREATE OR REPLACE keeps it in place.
 * The creator is `incident_user_id` (the post mortem has no user of its own), a bigint as the
 * reference's `filter[user_id]` is an integer: the incident's `user_id` is text holding a user's
 * id, and anything else there reads as null rather than failing every list. The post mortem's
 * `cause_ids` stays its own (the incident's causes are not filtered on).
 */
export class AddIncidentColumnsToPostMortemsRead1732300010900 implements MigrationInterface {
  name = 'AddIncidentColumnsToPostMortemsRead1732300010900';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE VIEW incident_post_mortems_read AS${COLUMNS},
             CASE WHEN i.user_id ~ '^[0-9]{1,18}$' THEN i.user_id::bigint END AS incident_user_id,
             i.environment_ids, i.functionality_ids, i.group_ids, i.incident_type_ids${FROM}`);
  }

  /** The view as it was: CREATE OR REPLACE cannot drop columns. */
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP VIEW incident_post_mortems_read');
    await q.query(`CREATE VIEW incident_post_mortems_read AS${COLUMNS}${FROM}`);
  }
}
