import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import Type from 'typebox';
import { Errors } from '../errors.ts';
import { errorResponses } from '../plugin-api/response-schemas.ts';
import { readStillOutToken } from './still-out-token.ts';
import { reportByDelivery, type StillOutTypes } from './still-out-store.ts';

export interface StillOutRouteOptions {
  readonly db: Knex;
  readonly key: string;
  readonly types: StillOutTypes;
}

const ReportBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 100, description: 'The fragment of the /still-out link the message carried.' }) },
  { additionalProperties: false },
);
const Reported = Type.Object({
  recorded: Type.Boolean({ description: 'False when this subscription had reported on this item already (nothing changed).' }),
  areas: Type.String({ description: "The item's areas, as its message named them." }),
});

/** POST /api/still-out: the /still-out page's report, by the token of the message's link. */
export async function stillOutRoutes(app: FastifyInstance, options: StillOutRouteOptions) {
  app.post<{ Body: { token: string } }>(
    '/api/still-out',
    {
      schema: {
        summary: 'Report that an item a message said was over is not (the power is still off)',
        description:
          "One report per subscription and item: a second answers `recorded: false` and changes nothing. The feed's state is never changed. 400 for a token this service did not make, or of a message that asks for no report; 404 once the message is no longer kept.",
        tags: ['subscriptions'],
        body: ReportBody,
        response: { 200: Reported, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const ledgerId = readStillOutToken(options.key, request.body.token);
      if (ledgerId === null) throw new Errors.InvalidField('body/token: not a link of this service (open the link in the message again)');
      const verdict = await reportByDelivery(options.db, ledgerId, 'link', options.types);
      if (verdict.kind === 'unknown') throw new Errors.NotFound('body/token: the message of this link is no longer kept');
      if (verdict.kind === 'notAnEnd') throw new Errors.InvalidField('body/token: the message of this link asks for no report');
      request.log.info({ recorded: verdict.kind === 'recorded' }, 'still-out report by link');
      return { recorded: verdict.kind === 'recorded', areas: verdict.areas };
    },
  );
}
