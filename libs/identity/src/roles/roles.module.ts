import { Inject, Module, type DynamicModule, type OnModuleInit, type Type } from '@nestjs/common';
import { ProjectionRunner, type Projection } from '@taproot/messaging';
import { ROLE_RESOURCES, type RoleResourceDefinition } from './role-definitions';

/**
 * The generic resource path, handed in by the app: `@taproot/resources` depends on this lib,
 * so this lib cannot import its `resourceController` and `ResourceListProjection` itself.
 */
export interface DeclaredResourceTooling {
  controller(definition: RoleResourceDefinition): Type<unknown>;
  projection(definition: RoleResourceDefinition): Projection;
}

const TOOLING = Symbol('ROLES_RESOURCE_TOOLING');

/** `/v1/roles` and `/v1/on_call_roles`: their controllers and read-model projections. */
@Module({})
export class RolesModule implements OnModuleInit {
  static register(tooling: DeclaredResourceTooling): DynamicModule {
    return {
      module: RolesModule,
      controllers: ROLE_RESOURCES.map((definition) => tooling.controller(definition)),
      providers: [{ provide: TOOLING, useValue: tooling }],
    };
  }

  constructor(
    private readonly projections: ProjectionRunner,
    @Inject(TOOLING) private readonly tooling: DeclaredResourceTooling,
  ) {}

  onModuleInit(): void {
    for (const definition of ROLE_RESOURCES) this.projections.inline(this.tooling.projection(definition));
  }
}
