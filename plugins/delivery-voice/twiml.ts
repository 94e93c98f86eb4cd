import { singleLine } from '#plugin-api';

/** One thing the call says, in the language the gateway reads it in (a BCP 47 tag of its voices: `en-GB`, `ta-IN`). */
export interface Spoken {
  readonly text: string;
  readonly language: string;
}

/** Asks for one key (`<Gather numDigits="1">`), posted to `action`. */
export interface KeyPrompt {
  readonly prompt: Spoken;
  readonly action: string;
  /** Said when no key was pressed before the timeout. */
  readonly noAnswer: Spoken;
}

/** XML text and attribute escaping: nothing from outside can close an element or add one. */
const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/** A line as one spoken sentence: control characters and line breaks become spaces. */
const sentence = (text: string) => singleLine(text);

const say = (spoken: Spoken) => `<Say language="${escapeXml(spoken.language)}">${escapeXml(sentence(spoken.text))}</Say>`;

/**
 * The TwiML of a call (pure): what it says, then, when it asks for a key,
 * the prompt inside `<Gather numDigits="1">` (the key is posted to its
 * action), and what it says when no key came.
 */
export function callTwiml(said: readonly Spoken[], key?: KeyPrompt): string {
  const lines = said.map(say).join('');
  if (!key) return `<?xml version="1.0" encoding="UTF-8"?><Response>${lines}</Response>`;
  const gather = `<Gather numDigits="1" timeout="8" method="POST" action="${escapeXml(key.action)}">${lines}${say(key.prompt)}</Gather>`;
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${gather}${say(key.noAnswer)}</Response>`;
}

/** What the call says back after a key (or nothing): one sentence, then it hangs up. */
export function answerTwiml(spoken?: Spoken): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${spoken ? say(spoken) : ''}<Hangup/></Response>`;
}

/** A verification code read digit by digit (`4, 7, 1…`), so every voice says each digit. */
export const spokenDigits = (code: string) => code.split('').join(', ');
