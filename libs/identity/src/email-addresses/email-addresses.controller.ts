import { Controller, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { snapshotObject, type Snapshot } from '@taproot/resources';
import { emailAddressSchema } from './email-address.schema';
import { ResendEmailAddressVerificationCommand, VerifyEmailAddressCommand } from './email-verification-commands';

/**
 * The reference's verification routes of an e-mail address (its CRUD is the generic path's).
 * Like every change of a user's contact methods: the user themself, or `members` update.
 */
@Controller('v1/email_addresses/:id')
export class EmailAddressesController {
  constructor(private readonly commands: CommandBus) {}

  @Post('verify')
  @RequirePermission('members', 'read')
  @HttpCode(200)
  verify(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query('token') token: unknown) {
    return this.answer(new VerifyEmailAddressCommand(caller, id, typeof token === 'string' ? token : ''));
  }

  @Post('resend_verification')
  @RequirePermission('members', 'read')
  @HttpCode(200)
  resend(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return this.answer(new ResendEmailAddressVerificationCommand(caller, id));
  }

  private async answer(command: VerifyEmailAddressCommand | ResendEmailAddressVerificationCommand) {
    const snapshot: Snapshot = await this.commands.execute(command);
    return { data: snapshotObject(emailAddressSchema, snapshot) };
  }
}
