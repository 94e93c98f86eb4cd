/**
 * What people and clients see of a delivery target, declared in its
 * manifest: GET /api/notification-providers lists it, and the subscribe
 * and manage pages build their "Deliver by" choices, the destination field
 * and their words from it. Nothing in core names a target.
 */

/** The destination a subscriber gives (an email address), or that the target makes (a push topic). */
export interface DestinationSpec {
  /** true: a client's create request must carry `delivery.destination`; false: the target makes one (and refuses a given one). */
  readonly required: boolean;
  /** What the destination is, for API clients: `An email address; a link to confirm it is sent to it first.` */
  readonly description: string;
  /** The subscribe page's field label: `Email address`. Default: Destination. */
  readonly label?: string;
  /** The field's input type (its keyboard on a phone). Default: text. */
  readonly inputType?: 'email' | 'tel' | 'url' | 'text';
  /** The field's autocomplete token (`email`, `tel`). Default: off. */
  readonly autocomplete?: string;
  /** A line under the field: `We first send you a link to confirm the address.` */
  readonly hint?: string;
  /** An example in the empty field. */
  readonly placeholder?: string;
  /**
   * For a target that notifies the browser itself (Web Push): the page
   * registers this service worker, asks for permission, subscribes with
   * the key this URL answers (`{ publicKey }`), and sends the browser's
   * `PushSubscription.toJSON()` as `delivery.subscription`.
   */
  readonly browserSubscription?: { readonly publicKeyUrl: string; readonly serviceWorkerUrl: string };
}

/** What the subscribe page says once a subscription of a target whose subscriptions start inactive waits for confirmation. */
export interface ConfirmationWords {
  /** `Check your inbox`. */
  readonly heading: string;
  /** `We sent a link to {destination}. Open it to confirm the address.`: `{destination}` is replaced by the subscription's. */
  readonly text: string;
  /**
   * For a confirmation by a code the person types (a text message's): the
   * path the subscribe page posts `{ "code": "123456" }` to, with the
   * subscription's manage token; `{publicId}` is replaced by the
   * subscription's. The target's routes serve it. Without it the page asks
   * for no code.
   */
  readonly codeUrl?: string;
}

/** A delivery target as GET /api/notification-providers lists it. */
export interface ProviderInfo {
  readonly provider: string;
  readonly displayName: string;
  readonly destination: DestinationSpec;
  /** Whether it delivers now: its target is built and configured. */
  readonly available: boolean;
  /** Why not, in words that name what to set; null when available. */
  readonly unavailableReason: string | null;
  readonly confirmation: ConfirmationWords | null;
  /** The pages' button to a subscribe link, as the target words it; null: the pages' own words. */
  readonly subscribeLinkLabel: string | null;
  /** Fields its create answer holds, shown only then (the manifest's createdProperties, with their descriptions). */
  readonly shownOnce: ReadonlyArray<{ readonly field: string; readonly description: string }>;
  /** The languages it can present, when not all (its target's `languages()`); null: every language. */
  readonly languages: readonly string[] | null;
}

/** A target whose manifest says nothing of its destination: the target makes it, as far as a page can tell. */
export const UNDESCRIBED_DESTINATION: DestinationSpec = Object.freeze({ required: false, description: 'Not described by its plugin.' });
