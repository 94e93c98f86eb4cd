import { STATUS_CODES } from 'node:http';

/** Every error answer's body, in Fastify's shape: `{ statusCode, code, error, message }`. */
export interface ErrorBody {
  readonly statusCode: number;
  readonly code: string;
  readonly error: string;
  readonly message: string;
}

export function errorBody(statusCode: number, code: string, message: string): ErrorBody {
  return { statusCode, code, error: STATUS_CODES[statusCode] ?? 'Error', message };
}
