import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRunner } from '@taproot/messaging';
import { ResourceListProjection } from '@taproot/resources';
import { systemTxtResolver, TXT_RESOLVER } from './txt-resolver';
import { verifiedDomainDefinition } from './verified-domain.schema';
import { VerifiedDomainsController } from './verified-domains.controller';
import { VerifyVerifiedDomainHandler } from './verify-verified-domain/verify-verified-domain.handler';

/** Verified domains, their DNS check and their read model (docs/status-pages.md). */
@Module({
  controllers: [VerifiedDomainsController],
  // A resolver of the process's own (tests replace its lookups), over the system's DNS.
  providers: [VerifyVerifiedDomainHandler, { provide: TXT_RESOLVER, useFactory: () => ({ ...systemTxtResolver }) }],
})
export class VerifiedDomainsModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    this.projections.inline(new ResourceListProjection(verifiedDomainDefinition));
  }
}
