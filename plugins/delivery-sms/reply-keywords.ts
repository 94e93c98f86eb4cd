/** What a reply asks for (pure): keywords case-insensitive, the text trimmed. */
export type ReplyIntent = 'stop' | 'start' | 'yes' | 'help' | 'status' | 'out';

const INTENTS: Readonly<Record<string, ReplyIntent>> = {
  STOP: 'stop',
  STOPALL: 'stop',
  UNSUBSCRIBE: 'stop',
  CANCEL: 'stop',
  END: 'stop',
  QUIT: 'stop',
  START: 'start',
  UNSTOP: 'start',
  // Confirms an alert that asked for it; else as START (it also confirms the number).
  YES: 'yes',
  HELP: 'help',
  INFO: 'help',
  STATUS: 'status',
  // "Still out": the latest message that said an outage ended was wrong for this number.
  OUT: 'out',
};

/** Anything that is not a keyword gets the help text. Punctuation around the word goes, as carriers take it ("Stop." is STOP). */
export function replyIntent(body: string): ReplyIntent {
  const word = body
    .trim()
    .replace(/^[\p{P}\p{S}\s]+|[\p{P}\p{S}\s]+$/gu, '')
    .toUpperCase();
  return INTENTS[word] ?? 'help';
}

/** A TwiML answer of one message, its text escaped (a reply never adds an element). */
export function twimlMessage(text: string): string {
  const escaped = text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
  return `<?xml version="1.0" encoding="UTF-8"?><Response><Message>${escaped}</Message></Response>`;
}

/** An empty TwiML answer: nothing is texted back (a delivery report). */
export const TWIML_EMPTY = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';
