import { describe, expect, it } from 'vitest';
import { replyIntent, twimlMessage } from './reply-keywords.ts';

describe('replyIntent', () => {
  it.each([
    ['STOP', 'stop'],
    ['stop', 'stop'],
    ['  Stop \n', 'stop'],
    ['STOPALL', 'stop'],
    ['unsubscribe', 'stop'],
    ['Cancel', 'stop'],
    ['end', 'stop'],
    ['QUIT', 'stop'],
    ['START', 'start'],
    ['unstop', 'start'],
    ['yes', 'yes'],
    [' Yes ', 'yes'],
    ['HELP', 'help'],
    ['info', 'help'],
    ['STATUS', 'status'],
    ['status ', 'status'],
    ['Stop.', 'stop'],
    ['STOP!', 'stop'],
    ['"stop"', 'stop'],
    ['¡Stop!', 'stop'],
    ['yes 👍', 'yes'],
    ['Out.', 'out'],
    ['...', 'help'],
    ['st.op', 'help'],
    ['stop please', 'help'],
    ['', 'help'],
    ['what is going on?', 'help'],
  ])('%j → %s', (body, intent) => {
    expect(replyIntent(body)).toBe(intent);
  });
});

describe('twimlMessage', () => {
  it('escapes the text: a reply never adds an element', () => {
    expect(twimlMessage('a <b> & "c"')).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Message>a &lt;b&gt; &amp; &quot;c&quot;</Message></Response>');
  });
});
