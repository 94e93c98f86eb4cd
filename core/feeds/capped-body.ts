/** The answer's body went past the limit: reading stopped there. */
export class AnswerTooLargeError extends Error {
  override readonly name = 'AnswerTooLargeError';
  readonly limitBytes: number;
  constructor(limitBytes: number) {
    super(`the answer is larger than ${limitBytes} bytes (the feed's MaxAnswerBytes)`);
    this.limitBytes = limitBytes;
  }
}

/**
 * Reads a body of at most `limitBytes`, however it arrives (with a
 * Content-Length or chunked): the chunks are kept only up to the limit,
 * and the first byte past it ends the read with AnswerTooLargeError, so
 * memory stays bounded by the limit whatever the peer sends. The caller
 * aborts the request then, which closes the connection.
 */
export async function readCapped(body: AsyncIterable<Uint8Array>, limitBytes: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > limitBytes) throw new AnswerTooLargeError(limitBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}
