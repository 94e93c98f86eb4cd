import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { Errors } from '../errors.ts';
import { type Geocoder, DEFAULT_RADIUS_METERS, MAX_PLACES, MAX_RADIUS_METERS } from '../places/index.ts';
import { errorBody } from '../http/error-body.ts';
import { errorResponses } from '../plugin-api/response-schemas.ts';

export interface MapRouteOptions {
  readonly tileUrl: string | null;
  readonly attribution: string | null;
  /** Where maps open when there is nothing to show yet. */
  readonly center: readonly [number, number] | null;
  readonly zoom: number;
  readonly geocoder: Geocoder | null;
}

const MapSettings = Type.Object({
  tileUrl: Type.Union([Type.String(), Type.Null()], { description: "The tiles' address ({z}/{x}/{y}); null: maps draw shapes on a plain background." }),
  attribution: Type.Union([Type.String(), Type.Null()]),
  center: Type.Union([Type.Tuple([Type.Number(), Type.Number()]), Type.Null()], { description: '[lat, lon] where maps open when there is nothing to show.' }),
  zoom: Type.Integer(),
  geocoder: Type.Boolean({ description: 'Whether GET /api/geocode searches addresses.' }),
  maxPlaces: Type.Integer(),
  maxRadiusMeters: Type.Integer(),
  defaultRadiusMeters: Type.Integer(),
});
const Found = Type.Array(Type.Object({ name: Type.String(), lat: Type.Number(), lon: Type.Number() }));
const GeocodeQuery = Type.Object(
  { q: Type.String({ minLength: 3, maxLength: 200, description: 'An address or a place name.' }) },
  { additionalProperties: false },
);

/** What the pages' maps need (GET /api/map), and the address search of the subscribe page (GET /api/geocode). */
export async function mapSettingsRoutes(app: FastifyInstance, options: MapRouteOptions) {
  app.get(
    '/api/map',
    { schema: { summary: 'How the pages draw maps, and what a place may be', tags: ['places'], response: { 200: MapSettings } } },
    async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=300').send({
        tileUrl: options.tileUrl,
        attribution: options.attribution,
        center: options.center,
        zoom: options.zoom,
        geocoder: options.geocoder !== null,
        maxPlaces: MAX_PLACES,
        maxRadiusMeters: MAX_RADIUS_METERS,
        defaultRadiusMeters: DEFAULT_RADIUS_METERS,
      }),
  );

  app.get<{ Querystring: { q: string } }>(
    '/api/geocode',
    {
      schema: {
        summary: "Places an address may be (the subscribe page's address box)",
        description:
          'Asks the geocoder (Geocoder__BaseUrl) for at most five places: `[{ name, lat, lon }]`. 404 when none is set up; 429 when more searches wait their turn than this instance may ask in the next two seconds (Geocoder__RequestsPerSecond); 502 when the geocoder did not answer.',
        tags: ['places'],
        querystring: GeocodeQuery,
        response: { 200: Found, ...errorResponses(400, 404, 429, 502) },
      },
    },
    async (request, reply) => {
      if (!options.geocoder) throw new Errors.NotFound('no geocoder is set up (Geocoder__BaseUrl): tap the map or use your location instead');
      const result = await options.geocoder.search(request.query.q);
      if (result.kind === 'busy')
        return reply
          .status(429)
          .header('retry-after', '2')
          .send(errorBody(429, 'NP_TOO_MANY_REQUESTS', 'The address search is busy: try again in a few seconds.'));
      if (result.kind === 'unavailable') {
        request.log.warn({ reason: result.reason }, 'geocoder unavailable');
        return reply
          .status(502)
          .send(errorBody(502, 'NP_GEOCODER_UNAVAILABLE', 'The address search did not answer: tap the map or use your location instead.'));
      }
      return result.places;
    },
  );
}

/** "7.2906,80.6337" as [lat, lon] (the config's pattern already holds it to that shape). */
export function parseCenter(text: string | undefined): [number, number] | null {
  if (!text) return null;
  const [lat, lon] = text.split(',').map((part) => Number(part.trim()));
  return Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat!) <= 90 && Math.abs(lon!) <= 180 ? [lat!, lon!] : null;
}
