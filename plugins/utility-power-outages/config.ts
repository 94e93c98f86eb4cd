import { feedMonitorSettings, TimeZoneSetting, Type } from '#plugin-api';

export const powerOutagesConfig = {
  PowerOutages: Type.Object({
    ...feedMonitorSettings('power-outage feed', { sharedSource: true }),
    TimeZone: TimeZoneSetting('IANA zone in which notification texts show times.'),
    MinOutageMinutes: Type.Integer({
      minimum: 0,
      maximum: 1440,
      default: 0,
      description:
        'An ongoing outage is announced only once it has lasted this long (from timeOff); one restored sooner is recorded, never announced. 0: every outage at once.',
    }),
    EstimateChangeMinutes: Type.Integer({
      minimum: 0,
      maximum: 1440,
      default: 30,
      description:
        'A subscriber is told a new estimated restoration only when it moved at least this much from the last estimate they were told (or went from none to one). 0: every change.',
    }),
  }),
};
