import { Type } from '#plugin-api';

export const powerOutagesConfig = {
  PowerOutages: Type.Object({
    Enabled: Type.Boolean({ default: false, description: 'Run the power-outage monitor.' }),
    PollingIntervalSeconds: Type.Integer({ minimum: 5, default: 60, description: 'Poll period of the power-outage feed, in seconds.' }),
    FeedTimeoutSeconds: Type.Integer({ minimum: 1, default: 15, description: 'HTTP timeout of the power-outage feed client, in seconds.' }),
    TimeZone: Type.String({ default: 'UTC', description: 'IANA zone in which notification texts show times.' }),
  }),
};
