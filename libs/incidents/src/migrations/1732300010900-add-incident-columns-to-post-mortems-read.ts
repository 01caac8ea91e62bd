import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The view's columns as 1732300010700-create-incident-post-mortems made them, in its order. */
const COLUMNS = `
      SELECT i.id, i.organization_id, i.private,
             COALESCE(p.title, i.title) AS title,
             COALESCE(p.status, 'draft') AS status,
             p.content,
             COALESCE(p.show_timeline, true) AS show_timeline,
             COALESCE(p.show_timeline_trail, false) AS show_timeline_trail,
             COALESCE(p.show_timeline_genius, false) AS show_timeline_genius,
             COALESCE(p.show_timeline_tasks, false) AS show_timeline_tasks,
             COALESCE(p.show_timeline_action_items, false) AS show_timeline_action_items,
             COALESCE(p.show_timeline_order, 'desc') AS show_timeline_order,
             COALESCE(p.show_services_impacted, true) AS show_services_impacted,
             COALESCE(p.show_functionalities_impacted, true) AS show_functionalities_impacted,
             COALESCE(p.show_groups_impacted, true) AS show_groups_impacted,
             COALESCE(p.show_alerts_attached, true) AS show_alerts_attached,
             COALESCE(p.show_action_items, true) AS show_action_items,
             p.cause_ids,
             COALESCE(i.url || '/retrospective', '/v1/post_mortems/' || i.id::text) AS url,
             i.started_at, i.mitigated_at, i.resolved_at,
             i.status AS incident_status, i.severity_id, i.service_ids,
             i.created_at,
             GREATEST(i.updated_at, p.updated_at) AS updated_at`;

const FROM = `
        FROM incidents_read i
        LEFT JOIN incident_post_mortems p ON p.id = i.id AND p.organization_id = i.organization_id`;

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
