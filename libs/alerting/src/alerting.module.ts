import { Module } from '@nestjs/common';

/** The alerting bounded context; its resources arrive in later issues. */
@Module({})
export class AlertingModule {}
