/** What a create answers that the browser tests use. */
export interface CreatedSubscription {
  readonly publicId: string;
  readonly manageToken: string;
  readonly delivery: { readonly destination: string };
}

/**
 * Creates a subscription over HTTP (as a page would) and answers it; a
 * refused create fails the caller's setup at once, naming why, rather than
 * leaving its checks on a page's "does not exist" state.
 */
export async function createdSubscription(baseUrl: string, body: object): Promise<CreatedSubscription & { manage: string }> {
  const answer = await fetch(`${baseUrl}/api/notification-subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (answer.status !== 201) throw new Error(`create answered ${answer.status}: ${await answer.text()}`);
  const created = (await answer.json()) as CreatedSubscription;
  return { ...created, manage: `/manage/${created.publicId}#token=${encodeURIComponent(created.manageToken)}` };
}
