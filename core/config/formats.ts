import type { Ajv } from 'ajv';

/** Whether this runtime knows the IANA zone (`UTC`, `Asia/Colombo`); the empty string is none. */
function isTimeZone(value: string): boolean {
  if (value.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** Formats of configuration values beyond ajv-formats, and how a message names them. */
export const CONFIG_FORMATS: Readonly<Record<string, { check: (value: string) => boolean; label: string }>> = {
  'time-zone': { check: isTimeZone, label: 'an IANA time zone such as UTC or Asia/Colombo' },
};

export function addConfigFormats(ajv: Ajv): Ajv {
  for (const [name, { check }] of Object.entries(CONFIG_FORMATS)) ajv.addFormat(name, { type: 'string', validate: check });
  return ajv;
}
