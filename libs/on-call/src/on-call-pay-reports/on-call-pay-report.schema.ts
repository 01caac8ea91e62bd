import { defineResource, type AttributeDef } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { PAY_REPORT_RULES } from './pay-report-rules';

const output = (type: AttributeDef['type'], description: string, more: Partial<AttributeDef> = {}): AttributeDef => ({ type, writable: false, description, ...more });
// Up to 10,000,000 cents an hour or a day: seconds × rate stays an exact integer (pay-figures.ts).
const rate = (per: string): AttributeDef => ({ type: 'integer', minimum: 0, maximum: 10_000_000, default: 0, description: `${per} pay rate in cents (Taproot: writable; the hosted API sets it from its pay settings)` });

/**
 * An on-call pay report (the hosted API's `on_call_pay_report`, docs/on-call-pay-reports.md): the
 * time each user was on call in the schedules named (all of the organization's when none) over a
 * period of calendar days in a time zone, and its pay. Computed in the request that creates,
 * changes or regenerates it (pay-report-rules.ts): a report answers `generated`.
 * The hosted API takes only the period, schedules and zones; the rates, currency, pay type and
 * `include_shadow` are writable here too (Taproot has no pay settings to take them from).
 */
export const onCallPayReportSchema = defineResource({
  type: 'on_call_pay_reports',
  singular: 'on_call_pay_report',
  path: '/v1/on_call_pay_reports',
  readTable: 'on_call_pay_reports_read',
  // Newest first, as reports are looked for.
  defaultSort: '-created_at',
  operations: ['list', 'create', 'get', 'update'],
  attributes: {
    status: output('string', 'The current status of the report: generated once computed (Taproot computes in the request)', { enum: ['processing', 'generated', 'downloaded'], filter: ['eq', 'in'], default: 'processing' }),
    start_date: { type: 'string', required: true, alwaysStored: true, description: 'The first day of the report period (YYYY-MM-DD), included' },
    end_date: { type: 'string', required: true, alwaysStored: true, description: 'The last day of the report period (YYYY-MM-DD), included; at most 366 days from start_date' },
    schedule_ids: { type: 'array', items: { type: 'string' }, nullable: true, default: [], description: 'List of schedule UUIDs to scope the report; empty: every schedule of the organization' },
    time_zone: { type: 'string', nullable: true, default: 'Etc/UTC', description: 'IANA timezone used to compute day boundaries; Etc/UTC when not given (Taproot teams have no time zone)' },
    use_responders_time_zone: { type: 'boolean', default: false, description: "When true, each responder's own time zone (users' time_zone) decides their period and days" },
    pay_type: { type: 'string', enum: ['hourly', 'daily'], default: 'hourly', description: 'The pay calculation type: hourly (time on call × hourly rate) or daily (days with time on call × daily rate)' },
    hourly_rate_cents: rate('Hourly'),
    daily_rate_cents: rate('Daily'),
    currency: { type: 'string', minLength: 3, maxLength: 3, default: 'USD', description: 'The ISO 4217 currency code of the rates and pay' },
    include_shadow: { type: 'boolean', default: false, description: 'Whether shadow shifts (on-call shadows) count as time on call' },
    total_duration: output('integer', 'Total on-call duration in seconds, summed over users'),
    users_count: output('integer', 'Number of users on call in the period'),
    total_pay_cents: output('integer', "Total pay amount in cents: the users' pay summed"),
    show_individual_shift_data: output('boolean', 'Whether individual shift data is shown: false, the report has per-user totals (user_breakdown)', { default: false }),
    has_single_rate: output('boolean', 'Whether a single rate is applied to all users: always true here', { default: true }),
    enabled_granular_time_breakdown: output('boolean', 'Whether granular time breakdown is enabled: always false here', { default: false }),
    last_generated_at: output('date-time', 'When the report was last generated', { nullable: true }),
    csv_file_url: output('string', 'Download URL for the generated CSV report: Taproot serves no files (null)', { nullable: true, format: 'uri' }),
    xlsx_file_url: output('string', 'Download URL for the generated XLSX report: Taproot serves no files (null)', { nullable: true, format: 'uri' }),
    user_breakdown: output('array', 'Taproot: per user on call, {user_id, total_duration, days_on_call, total_pay_cents}', {
      items: {
        type: 'object',
        properties: {
          user_id: { type: 'integer' },
          total_duration: { type: 'integer', description: 'Seconds on call in the period' },
          days_on_call: { type: 'integer', description: "Days of the period with any time on call, in the report's (or the user's) zone" },
          total_pay_cents: { type: 'integer' },
        },
      },
      default: [],
    }),
  },
});

export const onCallPayReportDefinition: ResourceDefinition = {
  schema: onCallPayReportSchema,
  context: 'on-call',
  table: 'on_call_pay_reports',
  // No role field of pay reports exists: the schedules they are computed from decide (docs/on-call-pay-reports.md).
  permission: { family: 'schedules' },
  rules: PAY_REPORT_RULES,
};
