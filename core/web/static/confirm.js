// @ts-check
// "Did you get the alert?": /confirm#<token>, the link an urgent alert carries to a subscriber who must
// confirm each one. Pressing the button stops its escalation (no call, no visit).
import { installLinkButton } from './link-button.js';
import { pageWord } from './page-words.js';

installLinkButton({
  prefix: 'confirm',
  words: 'confirm',
  api: '/api/confirmations',
  done: (body) =>
    body.confirmed
      ? pageWord('page.confirm.thanks', 'Thank you: we know you got it.')
      : pageWord('page.confirm.already', 'This alert is confirmed already: thank you.'),
});
