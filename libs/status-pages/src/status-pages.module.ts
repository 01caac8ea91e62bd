import { Module } from '@nestjs/common';

/** The status-pages bounded context; its resources arrive in later issues. */
@Module({})
export class StatusPagesModule {}
