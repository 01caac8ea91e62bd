import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `zendesk_ticket_id`: the one integration field the reference's incident list filters on
 * (`filter[zendesk_ticket_id]`). Output-only and null until a Zendesk integration fills it; the
 * column makes the filter answer like the reference's (no match) instead of a 400.
 */
export class AddIncidentZendeskTicketIds1732300001500 implements MigrationInterface {
  name = 'AddIncidentZendeskTicketIds1732300001500';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE incidents ADD COLUMN zendesk_ticket_id text');
    await q.query('ALTER TABLE incidents_read ADD COLUMN zendesk_ticket_id text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE incidents_read DROP COLUMN zendesk_ticket_id');
    await q.query('ALTER TABLE incidents DROP COLUMN zendesk_ticket_id');
  }
}
