import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { Errors } from '../errors.ts';
import { errorResponses } from '../plugin-api/response-schemas.ts';
import type { Confirmations } from './confirmations.ts';

const ConfirmBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 100, description: 'The fragment of the /confirm link the alert carried.' }) },
  { additionalProperties: false },
);
const Confirmed = Type.Object({
  confirmed: Type.Boolean({ description: 'False when it was confirmed (or an operator reached the person) already: nothing changed.' }),
});

/** POST /api/confirmations: the /confirm page's button, by the token of the alert's link. */
export async function confirmRoutes(app: FastifyInstance, options: { readonly confirmations: Confirmations }) {
  app.post<{ Body: { token: string } }>(
    '/api/confirmations',
    {
      schema: {
        summary: 'Confirm that an urgent alert was received (the /confirm page)',
        description:
          'For a subscriber who must confirm each urgent alert: stops its escalation (steps not sent yet are not sent) and keeps it off the "Not confirmed" list. A second confirmation answers `confirmed: false` and changes nothing. 400 for a token this service did not make.',
        tags: ['subscriptions'],
        body: ConfirmBody,
        response: { 200: Confirmed, ...errorResponses(400) },
      },
    },
    async (request) => {
      const verdict = await options.confirmations.byLink(request.body.token);
      if (verdict === 'bad') throw new Errors.InvalidField('body/token: not a link of this service (open the link in the alert again)');
      request.log.info({ confirmed: verdict === 'confirmed' }, 'alert confirmed by link');
      return { confirmed: verdict === 'confirmed' };
    },
  );
}
