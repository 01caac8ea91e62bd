import { Module } from '@nestjs/common';
import { PublicPageCache } from './public-page.cache';
import { PublicPageController } from './public-page.controller';
import { PublicPageFastPath } from './public-page.fast-path';
import { PublicPageReader } from './public-page.reader';
import { PasswordThrottle, PublicPagePasswordController } from './public-page.password';
import { PageSessions } from './public-page.session';
import { PageSignIn } from './public-page.sign-in';
import { PublicPageSignInController } from './public-page.sign-in.controller';

/** The public status page: HTML, JSON and Atom, by slug and on verified custom domains, and private pages' sign-in (docs/status-pages.md). */
@Module({ controllers: [PublicPageSignInController, PublicPagePasswordController, PublicPageController], providers: [PasswordThrottle, PublicPageReader, PublicPageCache, PublicPageFastPath, PageSessions, PageSignIn] })
export class PublicPageModule {}
