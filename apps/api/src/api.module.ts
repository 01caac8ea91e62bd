import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { AlertingModule } from '@taproot/alerting';
import { CatalogModule } from '@taproot/catalog';
import { AuthenticationModule } from '@taproot/auth';
import { IdentityModule } from '@taproot/identity';
import { IncidentsModule } from '@taproot/incidents';
import { OnCallModule } from '@taproot/on-call';
import { RESOURCE_HANDLERS } from '@taproot/resources';
import { HealthController, LOGGER, PlatformModule, type Runtime } from '@taproot/runtime';
import { StatusPagesModule } from '@taproot/status-pages';
import { JsonApiExceptionFilter } from './http/json-api-exception.filter';
import { OpenApiController } from './http/openapi.controller';

/** The /v1 API: the platform, authentication, and every bounded context's module. */
@Module({})
export class ApiModule {
  static forRuntime(runtime: Runtime): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        PlatformModule.forRuntime(runtime),
        CqrsModule.forRoot(),
        AuthenticationModule,
        IdentityModule,
        CatalogModule,
        IncidentsModule,
        AlertingModule,
        OnCallModule,
        StatusPagesModule,
      ],
      controllers: [HealthController, OpenApiController],
      providers: [
        ...RESOURCE_HANDLERS,
        { provide: APP_FILTER, useFactory: (logger) => new JsonApiExceptionFilter(logger), inject: [LOGGER] },
      ],
    };
  }
}
