import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type Runtime } from '@taproot/runtime';
import type Provider from 'oidc-provider';
import { InteractionsController } from './interactions/interactions.controller';
import { OIDC_PROVIDER } from './oidc/provider.token';

/** Probes, the interaction pages and the provider instance (protocol paths: Fastify, see oidc/mount.ts). */
@Module({})
export class AuthModule {
  static forRuntime(runtime: Runtime, provider: Provider): DynamicModule {
    return {
      module: AuthModule,
      imports: [PlatformModule.forRuntime(runtime)],
      controllers: [InteractionsController],
      providers: [{ provide: OIDC_PROVIDER, useValue: provider }],
      exports: [OIDC_PROVIDER],
    };
  }
}
