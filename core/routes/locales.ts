import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { DEFAULT_LOCALE, LOCALES } from '../i18n/index.ts';

const LocalesSchema = Type.Object({
  default: Type.String({ description: 'The language of a subscription that chose none.' }),
  locales: Type.Array(
    Type.Object({
      code: Type.String({ description: 'The value of preferences.language.' }),
      name: Type.String({ description: "The language's name in that language." }),
    }),
  ),
});

/** GET /api/locales: the languages a subscription can choose (preferences.language). */
export async function localeRoutes(app: FastifyInstance) {
  const schema = {
    summary: 'The languages',
    description:
      'The languages every message, email, text and verification can be written in for a subscription (its preferences.language). A text a plugin has not translated yet comes in English.',
    tags: ['feeds'],
    response: { 200: LocalesSchema },
  };
  const answer = { default: DEFAULT_LOCALE, locales: LOCALES.map(({ code, name }) => ({ code, name })) };
  app.get('/api/locales', { schema }, async () => answer);
}
