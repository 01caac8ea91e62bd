import type { MigrationInterface, QueryRunner } from 'typeorm';
import { settleRules } from '../alert-routes/rule-merge';

/**
 * Every rule, condition group, condition and destination of the alert routes stored before they
 * had ids gets one (docs/alert-routing.md, "Changing rules by id"), in the write table and the same
 * in the read model, so a client can change or delete them by id at once.
 */
export class AlertRouteRuleIds1732300009210 implements MigrationInterface {
  name = 'AlertRouteRuleIds1732300009210';

  async up(q: QueryRunner): Promise<void> {
    // Rules were written whole: a route whose rules lack ids has none at any level.
    const routes = (await q.query(`SELECT organization_id, id, rules FROM alert_routes WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(rules) AS rule WHERE NOT rule ? 'id')`)) as {
      organization_id: string;
      id: string;
      rules: unknown[];
    }[];
    for (const route of routes) {
      const rules = JSON.stringify(settleRules(route.rules));
      for (const table of ['alert_routes', 'alert_routes_read']) await q.query(`UPDATE ${table} SET rules = $3 WHERE organization_id = $1 AND id = $2`, [route.organization_id, route.id, rules]);
    }
  }

  async down(): Promise<void> {
    // Nothing to undo: the ids are members the earlier code keeps as sent.
  }
}
