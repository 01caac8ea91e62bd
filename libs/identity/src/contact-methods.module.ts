import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRunner } from '@taproot/messaging';
import { resourceController, ResourceListProjection, type ResourceDefinition } from '@taproot/resources';
import { emailAddressDefinition } from './email-addresses/email-address.schema';
import { EmailAddressesController } from './email-addresses/email-addresses.controller';
import { EMAIL_VERIFICATION_HANDLERS } from './email-addresses/email-verification-commands';
import { VerificationMailer } from './email-addresses/verification-mailer';
import { notificationRuleDefinition } from './notification-rules/notification-rule.schema';
import { phoneNumberDefinition } from './phone-numbers/phone-number.schema';

/** Users' contact methods and notification rules (docs/contact-methods.md), rules after what they name. */
export const CONTACT_METHOD_RESOURCES: readonly ResourceDefinition[] = [emailAddressDefinition, phoneNumberDefinition, notificationRuleDefinition];

/**
 * `/v1/users/{user_id}/email_addresses|phone_numbers|notification_rules` and their records, and
 * e-mail verification (its mails too, when SMTP_URL is set).
 */
@Module({
  controllers: [...CONTACT_METHOD_RESOURCES.map((definition) => resourceController(definition)), EmailAddressesController],
  providers: [...EMAIL_VERIFICATION_HANDLERS, VerificationMailer],
})
export class ContactMethodsModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    for (const definition of CONTACT_METHOD_RESOURCES) this.projections.inline(new ResourceListProjection(definition));
  }
}
