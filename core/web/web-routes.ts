import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { type Caller, manageTokenOf } from '../http/caller-auth.ts';
import { BEARER, MANAGE_TOKEN } from '../http/openapi.ts';
import { errorResponses, textResponse } from '../plugin-api/response-schemas.ts';
import { PublicIdParams } from '../subscriptions/subscription-schemas.ts';
import type { SubscriptionService } from '../subscriptions/subscription-service.ts';
import { Errors } from '../errors.ts';
import { coreMessages, createTranslator, DEFAULT_LOCALE, LOCALES } from '../i18n/index.ts';
import { ASSET_NAMES, loadAsset, loadVendorAsset, PAGE_HEADERS, pageHeadersWithTiles, VENDOR_ASSETS, type PageAsset } from './page-assets.ts';

export interface WebRouteOptions {
  service: SubscriptionService;
  authenticate(request: FastifyRequest): Caller;
  /** Map__TileUrl: its origin may serve the maps' images. */
  tileUrl?: string | null;
}

// Loaded on the first QR code, not at start: most processes never render one.
let qrCodeLibrary: Promise<typeof import('qrcode')> | undefined;

const AssetParams = Type.Object({ name: Type.String({ maxLength: 64 }) });
const tags = ['pages'];
const page = (summary: string, description: string) => ({
  summary,
  description,
  tags,
  response: { 200: textResponse('text/html', 'The page (it loads its script and stylesheet from /web/).') },
});

/**
 * The pages for people: GET /subscribe and GET /manage/{publicId}, their
 * scripts and stylesheet under /web/, and the QR code of a push
 * subscription's subscribe link. The pages call the public HTTP API from
 * the browser; nothing here bypasses it.
 */
export async function webRoutes(app: FastifyInstance, options: WebRouteOptions) {
  const assets = new Map<string, PageAsset>(ASSET_NAMES.map((name) => [name, loadAsset(name)]));
  const subscribePage = loadAsset('subscribe.html');
  const managePage = loadAsset('manage.html');
  const outagesPage = loadAsset('outages.html');
  const stillOutPage = loadAsset('still-out.html');
  const confirmPage = loadAsset('confirm.html');
  // The pages with maps may show the tiles' images (and nothing else of that origin).
  const mapPageHeaders = pageHeadersWithTiles(options.tileUrl ?? null);
  const icons = { ico: readFileSync(new URL('./static/favicon.ico', import.meta.url)), svg: readFileSync(new URL('./static/favicon.svg', import.meta.url)) };
  const iconHeaders = { 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=86400' };
  const iconSchema = (type: string) => ({ summary: "The site's icon", tags, response: { 200: textResponse(type, 'The icon.') } });
  // Every browser asks for /favicon.ico; the pages name the SVG.
  app.get('/favicon.ico', { schema: iconSchema('image/x-icon') }, async (_request, reply) => reply.headers(iconHeaders).type('image/x-icon').send(icons.ico));
  app.get('/favicon.svg', { schema: iconSchema('image/svg+xml') }, async (_request, reply) =>
    reply
      .headers({ ...iconHeaders, 'content-security-policy': "default-src 'none'" })
      .type('image/svg+xml')
      .send(icons.svg),
  );

  app.get(
    '/subscribe',
    { schema: page('The subscribe page', 'A form that creates a subscription through the API, for people in a browser.') },
    async (_request, reply) => reply.headers(mapPageHeaders).type(subscribePage.contentType).send(subscribePage.body),
  );
  app.get(
    '/outages',
    { schema: page('The public map of current outages', "Every feed's current outages with their shapes, on a map and as a list; refreshed every 30 s.") },
    async (_request, reply) => reply.headers(mapPageHeaders).type(outagesPage.contentType).send(outagesPage.body),
  );

  app.get(
    '/still-out',
    {
      schema: page(
        'Not over for you? (a report that an outage said to be over is not)',
        "The link a restoration message carries: /still-out#<token>; the token stays in the fragment, and nothing is reported until the person presses the page's button (POST /api/still-out).",
      ),
    },
    async (_request, reply) => reply.headers(PAGE_HEADERS).type(stillOutPage.contentType).send(stillOutPage.body),
  );
  app.get(
    '/confirm',
    {
      schema: page(
        'Did you get the alert? (a confirmation of an urgent alert)',
        "The link an urgent alert carries to a subscriber who must confirm each one: /confirm#<token>; the token stays in the fragment, and nothing is confirmed until the person presses the page's button (POST /api/confirmations).",
      ),
    },
    async (_request, reply) => reply.headers(PAGE_HEADERS).type(confirmPage.contentType).send(confirmPage.body),
  );

  const managePageSchema = page(
    'The manage page of a subscription',
    'Shows it, sends a test, deletes it; the manage token travels in the fragment (#token=…), never to a server.',
  );
  app.get('/manage/:publicId', { schema: { ...managePageSchema, params: PublicIdParams } }, async (_request, reply) =>
    reply.headers(mapPageHeaders).type(managePage.contentType).send(managePage.body),
  );
  // The same page without a subscription: the list of every alert the token (#token=…) manages.
  app.get(
    '/manage',
    { schema: page('All the alerts of one manage link', 'Lists every subscription the manage token (#token=…) manages, each linked to its own manage page.') },
    async (_request, reply) => reply.headers(PAGE_HEADERS).type(managePage.contentType).send(managePage.body),
  );

  const assetSchema = {
    summary: 'A script or the stylesheet of the pages',
    tags,
    params: AssetParams,
    response: {
      200: { description: 'The file.', content: { 'text/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } } } },
      ...errorResponses(404),
    },
  };
  app.get<{ Params: { name: string } }>('/web/:name', { schema: assetSchema }, async (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) throw new Errors.NotFound(`no page asset ${request.params.name}`);
    return reply.headers(PAGE_HEADERS).type(asset.contentType).send(asset.body);
  });

  const vendor = new Map<string, PageAsset>(Object.keys(VENDOR_ASSETS).map((name) => [name, loadVendorAsset(name)]));
  app.get<{ Params: { name: string } }>(
    '/web/vendor/:name',
    { schema: { ...assetSchema, summary: 'A library the pages use (served from the installed package)' } },
    async (request, reply) => {
      const asset = vendor.get(request.params.name);
      if (!asset) throw new Errors.NotFound(`no vendor asset ${request.params.name}`);
      return reply.headers(PAGE_HEADERS).header('cache-control', 'public, max-age=3600').type(asset.contentType).send(asset.body);
    },
  );

  // The pages' own words in each language (core's messages `page.*`, English where a language has none).
  const wordsOf = new Map<string, Record<string, string>>(
    LOCALES.map(({ code }) => {
      const t = createTranslator(coreMessages, code);
      const keys = Object.keys(coreMessages.get(DEFAULT_LOCALE) ?? {}).filter((key) => key.startsWith('page.'));
      return [code, Object.fromEntries(keys.map((key) => [key, t(key)]))];
    }),
  );
  const wordsSchema = {
    summary: "The pages' words in one language",
    description: 'What the subscribe and manage pages write in a language of GET /api/locales: { key: text }.',
    tags,
    params: Type.Object({ code: Type.String({ maxLength: 8 }) }, { additionalProperties: false }),
    response: { 200: Type.Record(Type.String(), Type.String()), ...errorResponses(400, 404) },
  };
  app.get<{ Params: { code: string } }>('/web/words/:code', { schema: wordsSchema }, async (request, reply) => {
    const words = wordsOf.get(request.params.code);
    if (!words) throw new Errors.NotFound(`no language ${request.params.code} (GET /api/locales lists them)`);
    return reply.header('cache-control', 'public, max-age=300').send(words);
  });

  // Encodes only the subscribe link of a subscription the caller may manage: not an open QR service.
  app.get<{ Params: { publicId: string } }>(
    '/web/subscriptions/:publicId/qr.svg',
    {
      schema: {
        summary: "The QR code of a push subscription's subscribe link",
        tags,
        security: [MANAGE_TOKEN, BEARER],
        params: PublicIdParams,
        response: { 200: textResponse('image/svg+xml', 'An SVG image.'), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const view = options.service.view(await options.service.get(request.params.publicId, options.authenticate(request), manageTokenOf(request)));
      if (!view.subscribeUrl) throw new Errors.NotFound(`subscription ${view.publicId} has no subscribe link`);
      const QRCode = await (qrCodeLibrary ??= import('qrcode'));
      const svg = await QRCode.toString(view.subscribeUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
      return reply
        .headers({ ...PAGE_HEADERS, 'content-security-policy': "default-src 'none'", 'cache-control': 'no-store' })
        .type('image/svg+xml')
        .send(svg);
    },
  );
}
