import { createTableWithReadModel, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * On-call pay reports (docs/on-call-pay-reports.md). Durations and pay are double precision: they
 * outgrow an integer (a year of a hundred users is 3e9 seconds), node-postgres answers a bigint
 * as text, and every whole number below 2^53 is exact in a double.
 */
export class OnCallPayReports1732300011300 implements MigrationInterface {
  name = 'OnCallPayReports1732300011300';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'on_call_pay_reports', {
      definition: `${TENANT_COLUMNS},
        status text NOT NULL,
        start_date text NOT NULL,
        end_date text NOT NULL,
        schedule_ids text[],
        time_zone text,
        use_responders_time_zone boolean NOT NULL,
        pay_type text NOT NULL,
        hourly_rate_cents integer NOT NULL,
        daily_rate_cents integer NOT NULL,
        currency text NOT NULL,
        include_shadow boolean NOT NULL,
        total_duration double precision,
        users_count integer,
        total_pay_cents double precision,
        show_individual_shift_data boolean NOT NULL,
        has_single_rate boolean NOT NULL,
        enabled_granular_time_breakdown boolean NOT NULL,
        last_generated_at timestamptz,
        csv_file_url text,
        xlsx_file_url text,
        user_breakdown jsonb,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL`,
      readIndexes: { ...TIMESTAMP_READ_INDEXES, status: 'status, created_at, id' },
    });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE on_call_pay_reports_read, on_call_pay_reports');
  }
}
