import { Module } from '@nestjs/common';
import { PublicPageCache } from './public-page.cache';
import { PublicPageController } from './public-page.controller';
import { PublicPageFastPath } from './public-page.fast-path';
import { PublicPageReader } from './public-page.reader';

/** The public status page: HTML, JSON and Atom, by slug and on verified custom domains (docs/status-pages.md). */
@Module({ controllers: [PublicPageController], providers: [PublicPageReader, PublicPageCache, PublicPageFastPath] })
export class PublicPageModule {}
