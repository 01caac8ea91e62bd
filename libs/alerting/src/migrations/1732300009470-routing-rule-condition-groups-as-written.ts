import type { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = ['alert_routing_rules', 'alert_routing_rules_read'];

/**
 * Routing rules answer `condition_groups` as written, and none can be written (the reference's
 * request has none): the groups derived from `conditions` are no longer stored, evaluation derives
 * them when it reads a rule (docs/alert-routing.md).
 */
export class RoutingRuleConditionGroupsAsWritten1732300009470 implements MigrationInterface {
  name = 'RoutingRuleConditionGroupsAsWritten1732300009470';

  async up(q: QueryRunner): Promise<void> {
    for (const table of TABLES) await q.query(`UPDATE ${table} SET condition_groups = '[]'::jsonb WHERE condition_groups <> '[]'::jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await q.query(`UPDATE ${table} SET condition_groups = CASE WHEN condition_type = 'any'
        THEN COALESCE((SELECT jsonb_agg(jsonb_build_object('position', e.ord, 'conditions', jsonb_build_array(e.c)) ORDER BY e.ord) FROM jsonb_array_elements(conditions) WITH ORDINALITY AS e(c, ord)), '[]'::jsonb)
        ELSE jsonb_build_array(jsonb_build_object('position', 1, 'conditions', conditions)) END`);
    }
  }
}
