import type { Knex } from 'knex';

export interface EndpointRequest {
  /** Stable name of what is polled, for example `utility-power-outages`. */
  readonly key: string;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** The most of the body that is read (`<Feed>__MaxAnswerBytes`); past it the poll fails. Default 10 MiB. */
  readonly maxBodyBytes?: number;
  readonly signal?: AbortSignal;
}

export type EndpointCheck =
  | { readonly changed: false; readonly status: number }
  | {
      readonly changed: true;
      readonly status: number;
      readonly body: string;
      /**
       * Records the answer as seen, in the caller's transaction: call it
       * with the transaction that persists what was made of the body, so a
       * poll that fails later is processed again next time.
       */
      markSeen(trx: Knex.Transaction): Promise<void>;
    };

/**
 * The endpoint checker: a GET with conditional headers (ETag,
 * Last-Modified) and, where the server gives none, a content hash, so an
 * unchanged feed costs no parsing and no DETECT work. An HTTP error, a
 * timeout or a connection failure throws EndpointError.
 */
export interface EndpointChecker {
  check(request: EndpointRequest): Promise<EndpointCheck>;
}
