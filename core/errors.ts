/** The catalogue of coded errors lives with the plugin contract, which plugins throw them through. */
export { Errors } from './plugin-api/errors.ts';
