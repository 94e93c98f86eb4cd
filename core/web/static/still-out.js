// @ts-check
// "Not over for you?": /still-out#<token>, the link a message that ended an outage carries. One report per
// subscription and outage.
import { installLinkButton } from './link-button.js';
import { pageWord } from './page-words.js';

installLinkButton({
  prefix: 'still-out',
  words: 'stillOut',
  api: '/api/still-out',
  done: (body) => {
    const where = body.areas ? ` (${body.areas})` : '';
    return body.recorded
      ? `${pageWord('page.stillOut.thanks', 'Thank you: your report is passed on.')}${where}`
      : `${pageWord('page.stillOut.already', 'Your report is in already: thank you.')}${where}`;
  },
});
