import type { EventActor } from '@taproot/messaging';
import type { AlertAccess } from '../alert-writes';
import { alertDefinition } from '../alert.schema';

/** What every alert command carries: the alert resource and who acts. */
export abstract class AlertCommand {
  readonly definition = alertDefinition;
  constructor(readonly access: AlertAccess) {}
  get organizationId(): string {
    return this.access.organizationId;
  }
  get actor(): EventActor {
    return this.access.actor;
  }
  get userId(): string | null {
    return this.access.userId;
  }
}

/** A command that changes one existing alert, through `AlertChangeHandler`. */
export abstract class AlertChangeCommand extends AlertCommand {
  constructor(
    access: AlertAccess,
    readonly id: string,
  ) {
    super(access);
  }
}
