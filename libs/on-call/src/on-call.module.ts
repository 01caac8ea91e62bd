import { Module } from '@nestjs/common';

/** The on-call bounded context; its resources arrive in later issues. */
@Module({})
export class OnCallModule {}
