import { loadMessages, type MessageCatalog } from '../plugin-api/messages.ts';

/** Core's own messages (the catch-up, the test notification), in every shipped language. */
export const coreMessages: MessageCatalog = loadMessages(new URL('./locales/', import.meta.url));
