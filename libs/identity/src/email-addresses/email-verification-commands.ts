import { CommandHandler } from '@nestjs/cqrs';
import { actorOf, type Caller } from '@taproot/auth';
import type { EventActor } from '@taproot/messaging';
import { ResourceWriteHandler, type ResourceWriteCommand, type ResourceWriter, type Row, type Snapshot, type WriteContext } from '@taproot/resources';
import { IdentityError, IdentityErrorCode } from '../errors';
import { OF_USER } from '../users/user-parent';
import { emailAddressDefinition, verificationRequested } from './email-address.schema';
import { consumeEmailVerificationToken, forgetVerifications } from './email-verification';

/** A write on one e-mail address by a caller who may change the user's contact methods. */
abstract class EmailAddressCommand implements ResourceWriteCommand {
  readonly definition = emailAddressDefinition;
  readonly organizationId: string;
  readonly actor: EventActor;

  constructor(
    readonly caller: Caller,
    readonly id: string,
  ) {
    this.organizationId = caller.organizationId;
    this.actor = actorOf(caller);
  }
}

export class VerifyEmailAddressCommand extends EmailAddressCommand {
  constructor(
    caller: Caller,
    id: string,
    readonly token: string,
  ) {
    super(caller, id);
  }
}

export class ResendEmailAddressVerificationCommand extends EmailAddressCommand {}

/** The command's address, locked, once its caller may change it (the user, or `members` update). */
async function addressToChange(writer: ResourceWriter, ctx: WriteContext, c: EmailAddressCommand): Promise<Row> {
  const current = await writer.load(ctx.manager, ctx.organizationId, c.id, true);
  OF_USER.mayWrite!(c.caller, String(current.user_id));
  return current;
}

/** `POST /v1/email_addresses/{id}/verify?token=`: the token minted for this address marks it verified (`user_email_address.updated`). */
@CommandHandler(VerifyEmailAddressCommand)
export class VerifyEmailAddressHandler extends ResourceWriteHandler {
  execute(c: VerifyEmailAddressCommand): Promise<Snapshot> {
    return this.write(c, async (writer, ctx, keep) => {
      const current = await addressToChange(writer, ctx, c);
      await consumeEmailVerificationToken(ctx.manager, ctx.organizationId, String(current.id), c.token, ctx.now);
      return keep(await writer.update(ctx, String(current.id), { verified_at: ctx.now.toISOString() }));
    });
  }
}

/**
 * `POST /v1/email_addresses/{id}/resend_verification`: asks again for the verification mail
 * (`user_email_address.verification_requested`); earlier tokens stop working. A verified address: 422.
 */
@CommandHandler(ResendEmailAddressVerificationCommand)
export class ResendEmailAddressVerificationHandler extends ResourceWriteHandler {
  execute(c: ResendEmailAddressVerificationCommand): Promise<Snapshot> {
    return this.write(c, async (writer, ctx, keep) => {
      const current = await addressToChange(writer, ctx, c);
      if (current.verified_at) throw new IdentityError(IdentityErrorCode.AlreadyVerified, `email address ${String(current.id)} is already verified`);
      await forgetVerifications(ctx.manager, ctx.organizationId, String(current.id));
      const snapshot = writer.snapshot(current);
      return keep({ snapshot, events: [verificationRequested(snapshot, ctx)] });
    });
  }
}

export const EMAIL_VERIFICATION_HANDLERS = [VerifyEmailAddressHandler, ResendEmailAddressVerificationHandler];
