import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { CLOCK, TAPROOT_CONFIG, type Clock, type Logger, type TaprootConfig } from '@taproot/config';
import { MailFailure, type Mailer } from '@taproot/mail';
import { applyOnce, EVENT_BUS, topicOf, type DomainEvent, type EventBus } from '@taproot/messaging';
import { LOGGER, MAILER } from '@taproot/runtime';
import { DataSource, type EntityManager } from 'typeorm';
import { EMAIL_ADDRESS_EVENTS, emailAddressDefinition } from './email-address.schema';
import { forgetVerifications, issueEmailVerificationToken } from './email-verification';
import { verificationMail } from './verification-mail';

/** Consumer group and inbox key of the verification mails; never rename it once deployed. */
export const VERIFICATION_MAIL_CONSUMER = 'identity.email-verification-mails';

/**
 * Sends the verification mail of `user_email_address.verification_requested` (docs/contact-methods.md,
 * "Verification mails"), when `SMTP_URL` is set: for each event, in its own transaction with its
 * inbox row (applyOnce, so a redelivered event mails once), it mints the address' token
 * (issueEmailVerificationToken, which voids the earlier ones) and mails it. One transaction per
 * event rather than per batch: a mail cannot be taken back, so a later event's failure must not
 * roll back (and re-mail, with a new token) an earlier one that went out.
 *
 * - A transient failure (no connection, a timeout, a 4xx reply) with Kafka rejects: the token and
 *   the inbox row roll back and this consumer group's partition is redelivered until the relay
 *   answers (never dead-lettered: MailFailure is `retriable`). On the in-process bus, one relay
 *   feeds every consumer, so retrying would hold up the audit log and webhooks for as long as the
 *   SMTP relay is down: there it is logged and skipped like a permanent one.
 * - A permanent one (a refused address, what is not one mailbox) is logged and skipped; the token
 *   minted for it is dropped. `resend_verification` asks again.
 * - An address deleted, verified or changed since the event is skipped: its event is stale (a
 *   change of address has an event of its own).
 *
 * The token is in the mail only: never logged, never in an event or an error.
 */
@Injectable()
export class VerificationMailer implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(TAPROOT_CONFIG) private readonly config: Pick<TaprootConfig, 'publicUrl'>,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
    // The process's one SMTP pool (Runtime.mailer), which the runtime closes.
    @Inject(MAILER) private readonly mailer: Mailer | null,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.mailer) {
      this.logger.info('SMTP_URL is not set: e-mail address verification mails are not sent (docs/contact-methods.md)');
      return;
    }
    await this.bus.subscribe({
      groupId: VERIFICATION_MAIL_CONSUMER,
      topics: [topicOf(emailAddressDefinition.context)],
      handler: (events) => this.handle(events),
    });
  }

  /** A delivered batch: each verification request once, in order; rejects on the first transient failure. */
  async handle(events: DomainEvent[]): Promise<void> {
    for (const event of events) {
      if (event.type !== EMAIL_ADDRESS_EVENTS.verificationRequested) continue;
      await applyOnce(this.dataSource, VERIFICATION_MAIL_CONSUMER, event, (manager) => this.#mail(event, manager));
    }
  }

  async #mail(event: DomainEvent, manager: EntityManager): Promise<void> {
    const mailer = this.mailer!;
    const organizationId = event.organization_id;
    const emailAddressId = event.aggregate_id;
    const requested = String((event.payload as { email?: unknown }).email ?? '');
    const about = { event_id: event.id, organization_id: organizationId, email_address_id: emailAddressId };
    const [current]: { email: string; verified_at: Date | null }[] = await manager.query(
      'SELECT email, verified_at FROM user_email_addresses WHERE organization_id = $1 AND id = $2',
      [organizationId, emailAddressId],
    );
    if (!current || current.verified_at !== null || current.email.toLowerCase() !== requested.toLowerCase()) {
      this.logger.debug(about, 'verification mail not sent: the address was deleted, verified or changed since it was requested');
      return;
    }
    const token = await issueEmailVerificationToken(manager, organizationId, emailAddressId, this.clock.now());
    try {
      await mailer.send(verificationMail({ email: current.email, emailAddressId, token, publicUrl: this.config.publicUrl }));
    } catch (error) {
      if (!(error instanceof MailFailure) || (!error.permanent && this.bus.kind === 'kafka')) throw error;
      // No mail carries this token: it verifies nothing. The earlier ones were voided by the request.
      await forgetVerifications(manager, organizationId, emailAddressId);
      this.logger.warn({ ...about, err: error.message }, 'verification mail not sent; not retried (resend_verification asks again)');
    }
  }
}
