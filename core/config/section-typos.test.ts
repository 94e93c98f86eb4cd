import { describe, expect, it } from 'vitest';
import { editDistance, findSectionTypo } from './section-typos.ts';

// The sections of the shipped configuration (core and plugins).
const SECTIONS = [
  'Server',
  'Logging',
  'ConnectionStrings',
  'Database',
  'NotificationPipeline',
  'ExternalProvider',
  'SubscriptionLimits',
  'Jwt',
  'EmailProvider',
  'EmailOutbox',
  'Notifications',
  'PowerOutages',
  'ScheduledOutages',
];

describe('edit distance', () => {
  it.each([
    ['server', 'server', 0],
    ['serverr', 'server', 1],
    ['sever', 'server', 1],
    ['sevrer', 'server', 1],
    ['srever', 'server', 1],
    ['servre', 'server', 1],
    ['serv', 'server', 2],
    ['xerverr', 'server', 2],
    ['path', 'server', 6],
    ['', 'jwt', 3],
  ])('%s → %s is %i', (a, b, expected) => {
    expect(editDistance(a, b)).toBe(expected);
    expect(editDistance(b, a)).toBe(expected);
  });
});

describe('misspelled configuration sections', () => {
  it.each([
    // name, intended section (undefined: not warned about)
    ['Serverr__Port', 'Server'],
    ['Sever__Port', 'Server'],
    ['SEVRER__PORT', 'Server'],
    ['serverr__host', 'Server'],
    ['Serverr:Port', 'Server'],
    ['Loging__Level', 'Logging'],
    ['Logigng__Level', 'Logging'],
    ['ConnectionString__DefaultConnection', 'ConnectionStrings'],
    ['Databse__EmbeddedPath', 'Database'],
    ['NotificationPipline__Enabled', 'NotificationPipeline'],
    ['Notification__Push__BaseUrl', 'Notifications'],
    ['PowerOutage__Enabled', 'PowerOutages'],
    ['ScheduledOutage__Enabled', 'ScheduledOutages'],
    ['EmailProvder__Host', 'EmailProvider'],
    ['EmailOutbx__BatchSize', 'EmailOutbox'],
    ['Jwtt__Secret', 'Jwt'],
    ['JWS__Secret', 'Jwt'],
    // Spelled right (in any case): envToTree reads them, nothing to warn about.
    ['Server__Port', undefined],
    ['SERVER__PORT', undefined],
    ['jwt__secret', undefined],
    // Not ours: no key separator, or a first segment far from every section.
    ['PATH', undefined],
    ['HOME', undefined],
    ['Serverr', undefined],
    ['npm_config_cache', undefined],
    ['npm_package_scripts_start', undefined],
    ['NODE_OPTIONS', undefined],
    ['__CF_USER_TEXT_ENCODING', undefined],
    ['DOTNET__CLI_TELEMETRY', undefined],
    ['AWS__REGION', undefined],
    ['Kestrel__Endpoints__Http__Url', undefined],
    // Short sections allow one edit only: two would catch unrelated names.
    ['JAVA__HOME', undefined],
    ['Job__Name', undefined],
    ['Jot__Name', 'Jwt'],
    // Two edits from a long section are still a typo; three are not.
    ['Srvrr__Port', 'Server'],
    ['Srvrrr__Port', undefined],
  ])('%s → %s', (name, section) => {
    const typo = findSectionTypo(name, SECTIONS);
    expect(typo?.section).toBe(section);
    if (typo) expect(typo.key).toBe(name);
  });

  it('suggests the variable with the section spelled right, keeping the rest as written', () => {
    expect(findSectionTypo('Serverr__Port', SECTIONS)).toEqual({ key: 'Serverr__Port', section: 'Server', suggestion: 'Server__Port' });
    expect(findSectionTypo('Notification__Push__BaseUrl', SECTIONS)?.suggestion).toBe('Notifications__Push__BaseUrl');
    expect(findSectionTypo('Serverr:Port', SECTIONS)?.suggestion).toBe('Server:Port');
  });

  it('picks the closest section, and the alphabetically first on a tie', () => {
    expect(findSectionTypo('EmailOutbo__X', SECTIONS)?.section).toBe('EmailOutbox');
    expect(findSectionTypo('Ab__X', ['Ac', 'Aa'])?.section).toBe('Aa');
  });
});
