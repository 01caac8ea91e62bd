import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A route write saved in its request records its rule update completed too (docs/alert-routing.md,
 * "Rule update status"): it has no rules waiting to be saved, so `rules` is null there.
 */
export class RuleUpdateStatusOfEveryWrite1732300009340 implements MigrationInterface {
  name = 'RuleUpdateStatusOfEveryWrite1732300009340';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE alert_route_rule_updates ALTER COLUMN rules DROP NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM alert_route_rule_updates WHERE rules IS NULL`);
    await q.query('ALTER TABLE alert_route_rule_updates ALTER COLUMN rules SET NOT NULL');
  }
}
