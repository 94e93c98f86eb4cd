/**
 * Which of the service's languages the gateway has a voice for (pure):
 * `Voice__Voices` maps a language code of LOCALES to the BCP 47 tag the
 * gateway's `<Say language>` takes (`en=en-GB,ta=ta-IN`). A language
 * without one is read in English, and the manage page says so.
 */
export function parseVoices(setting: string): ReadonlyMap<string, string> {
  const voices = new Map<string, string>();
  for (const pair of setting.split(',')) {
    const [code, tag] = pair.split('=').map((part) => part.trim());
    if (code && tag && /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(tag)) voices.set(code, tag);
  }
  if (!voices.has('en')) voices.set('en', 'en-US');
  return voices;
}

/** The language a subscriber's call is read in: theirs when the gateway has a voice for it, else English. */
export function callLanguage(voices: ReadonlyMap<string, string>, language: string | undefined): { readonly code: string; readonly tag: string } {
  const code = language && voices.has(language) ? language : 'en';
  return { code, tag: voices.get(code)! };
}
