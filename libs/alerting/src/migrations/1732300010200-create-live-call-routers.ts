import { createTableWithReadModel, TENANT_COLUMNS, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Live call routers (docs/live-call-routers.md): the write table and its read model; a number routes one router of an organization. */
export class CreateLiveCallRouters1732300010200 implements MigrationInterface {
  name = 'CreateLiveCallRouters1732300010200';

  async up(q: QueryRunner): Promise<void> {
    await createTableWithReadModel(q, 'live_call_routers', {
      definition: `
        ${TENANT_COLUMNS},
        name text NOT NULL,
        slug text NOT NULL,
        kind text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        country_code text NOT NULL,
        phone_type text NOT NULL,
        phone_number text NOT NULL,
        voicemail_greeting text NOT NULL,
        caller_greeting text,
        waiting_music_url text,
        sent_to_voicemail_delay integer,
        should_redirect_to_voicemail_on_no_answer boolean NOT NULL DEFAULT false,
        escalation_level_delay_in_seconds integer,
        should_auto_resolve_alert_on_call_end boolean NOT NULL DEFAULT false,
        alert_urgency_id text,
        calling_tree_enabled boolean NOT NULL DEFAULT false,
        calling_tree_prompt text,
        paging_targets jsonb NOT NULL DEFAULT '[]',
        escalation_policy_trigger_params jsonb,
        notify_via_sms boolean NOT NULL DEFAULT false,
        notify_via_push_notification boolean NOT NULL DEFAULT false,
        informational_notification_message text,
        unavailable_responder_message text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL`,
      writeIndexes: { slug: 'UNIQUE organization_id, slug text_pattern_ops', phone_number: 'UNIQUE organization_id, phone_number' },
      readIndexes: { ...TIMESTAMP_READ_INDEXES, name: 'name, created_at, id', slug: 'slug' },
    });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE live_call_routers_read, live_call_routers');
  }
}
