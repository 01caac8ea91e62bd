import { Module, type DynamicModule } from '@nestjs/common';
import { HealthController, PlatformModule, type Runtime } from '@taproot/runtime';

/** Probes only: the OAuth 2.0 / OpenID Connect provider arrives with its own issue. */
@Module({})
export class AuthModule {
  static forRuntime(runtime: Runtime): DynamicModule {
    return { module: AuthModule, imports: [PlatformModule.forRuntime(runtime)], controllers: [HealthController] };
  }
}
