import { Controller, Get, Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type Runtime } from '@taproot/runtime';

/** Probes only: the OAuth 2.0 / OpenID Connect provider arrives with its own issue. */
@Controller()
class AuthHealthController {
  @Get('healthz')
  healthz() {
    return { status: 'ok' };
  }
}

@Module({})
export class AuthModule {
  static forRuntime(runtime: Runtime): DynamicModule {
    return { module: AuthModule, imports: [PlatformModule.forRuntime(runtime)], controllers: [AuthHealthController] };
  }
}
