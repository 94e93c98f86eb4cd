import { describe, expect, it } from 'vitest';
import { configurePlatform } from '../core/boot.ts';
import { baseProcessEnv, demoServiceEnv, type DemoWiring } from './demo-env.ts';

const wiring: DemoWiring = {
  servicePort: 40123,
  databaseDir: '/tmp/notification-demo-x/database',
  timeZone: 'Asia/Colombo',
  feed: { baseUrl: 'http://127.0.0.1:40124', apiKey: 'demo-feed-key' },
  parts: [
    {
      plugin: 'delivery-push',
      env: { Notifications__Push__BaseUrl: 'http://127.0.0.1:40125', Notifications__Push__PublishToken: 'tk_0123456789abcdefghijklmnopqrs' },
    },
    {
      plugin: 'delivery-sms',
      env: {
        Sms__BaseUrl: 'http://127.0.0.1:40127',
        Sms__AccountSid: 'ACdemo',
        Sms__AuthToken: 'demo-sms-0123456789',
        Sms__From: '+15005550006',
        NotificationPipeline__Rates__Sms: '5',
      },
    },
  ],
  jwtSecret: 'demo-jwt-0123456789abcdef',
  geocoder: { baseUrl: 'http://127.0.0.1:40128' },
};

describe("the demo's service configuration", () => {
  it('is a valid configuration of the real plugins, with both feeds every 5 s and both system subscriptions', async () => {
    const { config } = await configurePlatform(demoServiceEnv(wiring));
    const tree = config as unknown as Record<string, Record<string, unknown>>;
    expect(tree.PowerOutages).toMatchObject({ Enabled: true, PollingIntervalSeconds: 5, TimeZone: 'Asia/Colombo' });
    expect(tree.ScheduledOutages).toMatchObject({ Enabled: true, PollingIntervalSeconds: 5 });
    expect(tree.NotificationPipeline.SystemSubscriptions).toEqual({
      PowerOutages: { FeedId: 'utility.power-outages', PushTopic: 'utility-power-outages', Provider: 'Push' },
      ScheduledOutages: { FeedId: 'utility.scheduled-outages', PushTopic: 'utility-scheduled-outages', Provider: 'Push' },
    });
    expect(tree.PublicBaseUrl).toBe('http://127.0.0.1:40123');
    expect(tree.Server).toMatchObject({ Host: '127.0.0.1', Port: 40123 });
    // So the operator side can be tried: the demo prints an admin token for this secret.
    expect(tree.Jwt).toEqual({ Secret: 'demo-jwt-0123456789abcdef' });
    // Maps open on the sample feed's towns, and the address box asks the local search.
    expect(tree.Map).toMatchObject({ Center: '7.2906,80.6337', Zoom: 10 });
    expect(tree.Geocoder).toMatchObject({ BaseUrl: 'http://127.0.0.1:40128', RequestsPerSecond: 5 });
  });

  it("holds each demo part's settings, and offers the push system subscriptions only with push in the demo", async () => {
    const env = demoServiceEnv(wiring);
    expect(env).toMatchObject({
      Sms__BaseUrl: 'http://127.0.0.1:40127',
      NotificationPipeline__Rates__Sms: '5',
      Notifications__Push__BaseUrl: 'http://127.0.0.1:40125',
    });
    const withoutPush = demoServiceEnv({ ...wiring, parts: wiring.parts.filter((part) => part.plugin !== 'delivery-push') });
    expect(Object.keys(withoutPush).filter((key) => key.startsWith('NotificationPipeline__SystemSubscriptions__'))).toEqual([]);
  });

  it("passes on none of the caller's configuration, only what a process needs", () => {
    const env = baseProcessEnv(
      { PATH: '/bin', HOME: '/home/a', ConnectionStrings__DefaultConnection: 'postgres://u:p@db/x', NODE_OPTIONS: '--inspect', PowerOutages__Enabled: 'false' },
      '/tmp/demo/tmp',
    );
    expect(env).toEqual({ PATH: '/bin', HOME: '/home/a', TMPDIR: '/tmp/demo/tmp' });
  });
});
