/** Reads server-sent events from `url` until `count` data items arrived (for tests of the inbox pages). */
export async function readEvents(url: string, count: number): Promise<unknown[]> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  const items: unknown[] = [];
  let buffer = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      if (data !== '') items.push(JSON.parse(data));
    }
    if (items.length >= count) break;
  }
  controller.abort();
  return items;
}
