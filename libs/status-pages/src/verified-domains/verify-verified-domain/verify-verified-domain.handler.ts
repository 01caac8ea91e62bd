import { Inject } from '@nestjs/common';
import { CommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '@taproot/config';
import { UnitOfWork } from '@taproot/messaging';
import { ResourceWriteHandler, ResourceWriter, type Row, type Snapshot } from '@taproot/resources';
import { DataSource } from 'typeorm';
import { publishesTxt, TXT_RESOLVER, type TxtResolver } from '../txt-resolver';
import { verifiedDomainDefinition } from '../verified-domain.schema';
import { VerifyVerifiedDomainCommand } from './verify-verified-domain.command';

/**
 * Checks a domain's challenge: found, the domain is `verified` (its first `verified_at` kept);
 * not found, a domain never verified stays `pending` and a verified one becomes `failing`, its
 * failures counted. The lookup happens before the transaction: no lock waits on DNS.
 */
@CommandHandler(VerifyVerifiedDomainCommand)
export class VerifyVerifiedDomainHandler extends ResourceWriteHandler {
  constructor(
    unitOfWork: UnitOfWork,
    @Inject(CLOCK) clock: Clock,
    private readonly dataSource: DataSource,
    @Inject(TXT_RESOLVER) private readonly resolver: TxtResolver,
  ) {
    super(unitOfWork, clock);
  }

  async execute(c: VerifyVerifiedDomainCommand): Promise<Snapshot> {
    const domain = await new ResourceWriter(verifiedDomainDefinition).load(this.dataSource.manager, c.organizationId, c.id);
    const found = await publishesTxt(this.resolver, String(domain.txt_host), String(domain.txt_value));
    return this.write(c, async (writer, ctx, keep) => {
      const current = await writer.load(ctx.manager, ctx.organizationId, c.id, true);
      const changes: Row = found
        ? { verification_status: 'verified', verified_at: current.verified_at ?? ctx.now, last_check_passed_at: ctx.now, check_failures_count: 0 }
        : { verification_status: current.verified_at ? 'failing' : 'pending', check_failures_count: Number(current.check_failures_count) + 1 };
      return keep(await writer.update(ctx, String(current.id), { ...changes, last_checked_at: ctx.now }));
    });
  }
}
