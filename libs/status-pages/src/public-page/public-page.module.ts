import { Module } from '@nestjs/common';
import { PublicPageController } from './public-page.controller';
import { PublicPageReader } from './public-page.reader';

/** The public status page: HTML, JSON and Atom, by slug and on verified custom domains (docs/status-pages.md). */
@Module({ controllers: [PublicPageController], providers: [PublicPageReader] })
export class PublicPageModule {}
