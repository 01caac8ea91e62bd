import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, TAPROOT_CONFIG, type Clock, type TaprootConfig } from '@taproot/config';
import type { CollectionDocument, SingleDocument } from '@taproot/json-api';
import { topicOf, UnitOfWork, type EventActor } from '@taproot/messaging';
import { DataSource } from 'typeorm';
import type { ResourceDefinition, Row } from './resource-definition';
import { ResourceReader, type FlatQuery } from './resource-reader';
import { ResourceWriter, type Snapshot } from './resource-writer';

/**
 * The generic commands of a declared resource. A resource with no rule beyond its declaration
 * needs no handler of its own; one with a real use case (resolve an incident) adds a command.
 */
export class CreateResourceCommand {
  constructor(
    readonly definition: ResourceDefinition,
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly attributes: Row,
  ) {}
}

export class UpdateResourceCommand {
  constructor(
    readonly definition: ResourceDefinition,
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly id: string,
    readonly attributes: Row,
  ) {}
}

export class DeleteResourceCommand {
  constructor(
    readonly definition: ResourceDefinition,
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly id: string,
  ) {}
}

export class ListResourcesQuery {
  constructor(
    readonly definition: ResourceDefinition,
    readonly organizationId: string,
    readonly query: FlatQuery,
  ) {}
}

export class GetResourceQuery {
  constructor(
    readonly definition: ResourceDefinition,
    readonly organizationId: string,
    readonly id: string,
  ) {}
}

const writers = new WeakMap<ResourceDefinition, ResourceWriter>();
function writerOf(definition: ResourceDefinition): ResourceWriter {
  let writer = writers.get(definition);
  if (!writer) writers.set(definition, (writer = new ResourceWriter(definition)));
  return writer;
}

type Change = CreateResourceCommand | UpdateResourceCommand | DeleteResourceCommand;

@Injectable()
abstract class ResourceChangeHandler<C extends Change> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute(command: C): Promise<Snapshot> {
    const { definition, organizationId, actor } = command;
    return this.unitOfWork.run(async (manager, emitter) => {
      const ctx = { organizationId, actor, manager, now: this.clock.now() };
      const result = await this.change(writerOf(definition), ctx, command);
      emitter.emit(topicOf(definition.context), result.events);
      return result.snapshot;
    });
  }

  protected abstract change(
    writer: ResourceWriter,
    ctx: Parameters<ResourceWriter['create']>[0],
    command: C,
  ): ReturnType<ResourceWriter['create']>;
}

@CommandHandler(CreateResourceCommand)
export class CreateResourceHandler extends ResourceChangeHandler<CreateResourceCommand> {
  protected change(writer: ResourceWriter, ctx: Parameters<ResourceWriter['create']>[0], c: CreateResourceCommand) {
    return writer.create(ctx, c.attributes);
  }
}

@CommandHandler(UpdateResourceCommand)
export class UpdateResourceHandler extends ResourceChangeHandler<UpdateResourceCommand> {
  protected change(writer: ResourceWriter, ctx: Parameters<ResourceWriter['create']>[0], c: UpdateResourceCommand) {
    return writer.update(ctx, c.id, c.attributes);
  }
}

@CommandHandler(DeleteResourceCommand)
export class DeleteResourceHandler extends ResourceChangeHandler<DeleteResourceCommand> {
  protected change(writer: ResourceWriter, ctx: Parameters<ResourceWriter['create']>[0], c: DeleteResourceCommand) {
    return writer.delete(ctx, c.id);
  }
}

@Injectable()
abstract class ResourceQueryHandler {
  protected readonly reader: ResourceReader;
  constructor(dataSource: DataSource, @Inject(TAPROOT_CONFIG) config: TaprootConfig) {
    this.reader = new ResourceReader(dataSource, config.cursorSecret);
  }
}

@QueryHandler(ListResourcesQuery)
export class ListResourcesHandler extends ResourceQueryHandler {
  execute(q: ListResourcesQuery): Promise<CollectionDocument> {
    return this.reader.list(q.definition.schema, q.organizationId, q.query);
  }
}

@QueryHandler(GetResourceQuery)
export class GetResourceHandler extends ResourceQueryHandler {
  execute(q: GetResourceQuery): Promise<SingleDocument> {
    return this.reader.get(q.definition.schema, q.organizationId, q.id);
  }
}

export const RESOURCE_HANDLERS = [
  CreateResourceHandler,
  UpdateResourceHandler,
  DeleteResourceHandler,
  ListResourcesHandler,
  GetResourceHandler,
];
